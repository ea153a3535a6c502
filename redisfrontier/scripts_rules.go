package redisfrontier

// rulesLua is the Lua source of the rules script (see scripts.go).
const rulesLua = `
-- rules: ARGV auth, pace, drop reason ('' none), perHost, defPace, margin.
-- Installs the pace table of the host's fresh rules; its robots.txt is
-- read (rstate ok, failures forgotten, version bumped). Returns the version.
local auth = ARGV[1]
local hk = base .. 'h:' .. auth
redis.call('HSET', hk, 'pace', ARGV[2], 'rstate', 'ok', 'rfail', 0, 'rretry', 0)
if ARGV[3] ~= '' then dropHost(auth, ARGV[3]) end
local v = redis.call('HINCRBY', hk, 'ver', 1)
local now = nowms()
putBack(auth, now, tonumber(ARGV[4]), ARGV[5], tonumber(ARGV[6]))
return v
`
