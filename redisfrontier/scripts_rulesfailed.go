package redisfrontier

// rulesFailedLua is the Lua source of the rulesfailed script (see scripts.go).
const rulesFailedLua = `
-- rulesfailed: ARGV auth, retryAtMs, maxFailures, reason. The host's
-- robots.txt could not be read: its next robots lease waits for retryAt,
-- and after maxFailures failures in a row the host is given up for the run
-- (reason). Returns the failures in a row.
local hk = base .. 'h:' .. ARGV[1]
local n = redis.call('HINCRBY', hk, 'rfail', 1)
redis.call('HSET', hk, 'rretry', ARGV[2])
if redis.call('HGET', hk, 'rstate') == 'ok' then redis.call('HSET', hk, 'rstate', '') end
if n >= tonumber(ARGV[3]) and dropHost(ARGV[1], ARGV[4]) then
  redis.call('ZREM', base .. 'ready', ARGV[1])
end
return n
`
