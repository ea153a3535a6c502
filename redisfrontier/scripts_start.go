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
local kind = 'robots'
if not hop then
  local l = redis.call('HMGET', lk, 'token', 'kind')
  if l[1] ~= token then return {'gone'} end
  kind = l[2]
end
local now, up = nowms()
local st = hostState(auth, defPace)
if st.dropped ~= '' then return {'dropped', st.dropped} end
local anyTime = kind == 'robots'
if not anyTime and not st.segs[segAt(st.segs, now)].open then
  return {'parked', tostring(nextOpen(st.segs, now) or (now + DAY))}
end
local t, parked, iv = earliest(now, st, margin, anyTime)
if parked then return {'parked', tostring(t)} end
if t - now > maxWait then return {'toolong', tostring(t), tostring(iv)} end
if t > now then return {'wait', tostring(t - now)} end
local hk = base .. 'h:' .. auth
redis.call('HSET', hk, 'last', math.max(up, st.last))
redis.call('HINCRBY', hk, 'unans', 1)
if not hop then redis.call('HSET', lk, 'started', up) end
return {'ok', tostring(up), tostring(iv)}
`
