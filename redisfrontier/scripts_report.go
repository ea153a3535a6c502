package redisfrontier

// reportLua is the Lua source of the report script (see scripts.go).
const reportLua = `
-- report: ARGV auth. Claims the report of a deferred or dropped host's
-- queued URLs at a drain: 1 for the one caller since the host's last
-- lease (the mark is the host's lease counter), 0 for every other.
local hk = base .. 'h:' .. ARGV[1]
local n = redis.call('HGET', hk, 'nlease') or '0'
if redis.call('HGET', hk, 'reported') == n then return 0 end
redis.call('HSET', hk, 'reported', n)
return 1
`
