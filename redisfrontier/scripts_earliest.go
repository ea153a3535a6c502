package redisfrontier

// earliestLua is the Lua source of the earliest script (see scripts.go).
const earliestLua = `
-- earliest: ARGV now, pace, last, until, adaptive, backoff, margin.
-- The pace computation alone, at a given instant, for tests.
local h = {segs = parsePace(ARGV[2]), last = tonumber(ARGV[3]), untl = tonumber(ARGV[4]),
  adaptive = tonumber(ARGV[5]), backoff = tonumber(ARGV[6])}
local t, parked, iv = earliest(tonumber(ARGV[1]), h, tonumber(ARGV[7]))
local p = 0
if parked then p = 1 end
return {tostring(t), p, tostring(iv)}
`
