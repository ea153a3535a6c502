package redisfrontier

// giveBackLua is the Lua source of the give-back script (see scripts.go).
const giveBackLua = `
-- giveback: ARGV id, token, timeoutMs, perHost, defPace, margin. A
-- process that ends returns a lease it still holds, as an expiry would,
-- but at once: its URL to the front of its queue, its robots turn to the
-- host, a request it started and saw no end of counted as lasting
-- timeoutMs. Returns 1, or 0 when the lease is no longer the caller's.
local id = ARGV[1]
if redis.call('HGET', base .. 'l:' .. id, 'token') ~= ARGV[2] then return 0 end
local now = nowms()
local auth = takeBack(id, tonumber(ARGV[3]), false)
if auth then putBack(auth, now, tonumber(ARGV[4]), ARGV[5], tonumber(ARGV[6])) end
return 1
`
