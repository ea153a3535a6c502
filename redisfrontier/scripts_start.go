package redisfrontier

// startLua is the Lua source of the start script (see scripts.go).
const startLua = `
-- start: ARGV auth, id, token, maxWaitMs, margin, hop, defPace.
-- {'ok', start} records the start (last = start, one more unanswered
-- request, the lease's started); {'wait', ms} writes nothing; {'parked',
-- until}, {'toolong', until, iv}, {'dropped', reason} or {'gone'} refuse.
local auth, id, token = ARGV[1], ARGV[2], ARGV[3]
local maxWait, margin, hop, defPace = tonumber(ARGV[4]), tonumber(ARGV[5]), ARGV[6] == '1', ARGV[7]
local lk = base .. 'l:' .. id
if not hop and redis.call('HGET', lk, 'token') ~= token then return {'gone'} end
local now, up = nowms()
local st = hostState(auth, defPace)
if st.dropped ~= '' then return {'dropped', st.dropped} end
-- Every request keeps the host's Visit-time, robots.txt and redirect hops
-- too, as the scheduler's Wait does: only before the host's rules are
-- read is its table the default's, open all day.
if not st.segs[segAt(st.segs, now)].open then
  return {'parked', tostring(nextOpen(st.segs, now) or (now + DAY))}
end
local t, parked, iv = earliest(now, st, margin)
if parked then return {'parked', tostring(t)} end
if t - now > maxWait then return {'toolong', tostring(t), tostring(iv)} end
if t > now then return {'wait', tostring(t - now)} end
local hk = base .. 'h:' .. auth
redis.call('HSET', hk, 'last', math.max(up, st.last))
redis.call('HINCRBY', hk, 'unans', 1)
if not hop then redis.call('HSET', lk, 'started', up) end
return {'ok', tostring(up), tostring(iv)}
`
