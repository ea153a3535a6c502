package redisfrontier

// renewLua is the Lua source of the renew script (see scripts.go).
const renewLua = `
-- renew: ARGV id, token, leaseMs. Returns 1 when the lease is still this
-- holder's (its expiry moved to now + leaseMs), 0 when it was taken back.
local lk = base .. 'l:' .. ARGV[1]
if redis.call('HGET', lk, 'token') ~= ARGV[2] then return 0 end
local now = nowms()
redis.call('ZADD', base .. 'leases', 'XX', now + tonumber(ARGV[3]), ARGV[1])
return 1
`
