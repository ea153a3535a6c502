package redisfrontier

// addLua is the Lua source of the add script (see scripts.go).
const addLua = `
-- add: ARGV auth, seen bucket, seen field, entry, perHost, defPace, margin.
-- Returns 0 for a URL seen before, 1 when it was queued.
local auth = ARGV[1]
if redis.call('HSETNX', base .. 'seen:' .. ARGV[2], ARGV[3], '') == 0 then return 0 end
redis.call('RPUSH', base .. 'q:' .. auth, ARGV[4])
redis.call('HINCRBY', base .. 'count', 'queued', 1)
redis.call('HINCRBY', base .. 'count', 'seen', 1)
if redis.call('SADD', base .. 'hosts', auth) == 1 then
  redis.call('HINCRBY', base .. 'count', 'hosts', 1)
end
local now = nowms()
putBack(auth, now, tonumber(ARGV[5]), ARGV[6], tonumber(ARGV[7]))
return 1
`
