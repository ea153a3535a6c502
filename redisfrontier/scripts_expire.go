package redisfrontier

// expireLua is the Lua source of the expire script (see scripts.go).
const expireLua = `
-- expire: ARGV auth, ver. A process found its copy of the host's rules
-- expired: unless a newer version was installed since, the shared copy is
-- dropped and the host's next lease is a robots lease. Returns 1 if so.
local hk = base .. 'h:' .. ARGV[1]
if num(redis.call('HGET', hk, 'ver')) ~= tonumber(ARGV[2]) then return 0 end
redis.call('DEL', base .. 'robots:' .. ARGV[1])
if redis.call('HGET', hk, 'rstate') == 'ok' then redis.call('HSET', hk, 'rstate', '') end
return 1
`
