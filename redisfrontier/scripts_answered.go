package redisfrontier

// answeredLua is the Lua source of the answered script (see scripts.go).
const answeredLua = `
-- answered: ARGV auth. The host answered now: its last start is taken as
-- no earlier than now (rounded up), so the next interval counts from the
-- end of the answer.
local hk = base .. 'h:' .. ARGV[1]
local _, up = nowms()
if up > num(redis.call('HGET', hk, 'last')) then redis.call('HSET', hk, 'last', up) end
return 1
`
