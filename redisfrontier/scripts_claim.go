package redisfrontier

// claimLua is the Lua source of the claim script (see scripts.go).
const claimLua = `
-- claim: ARGV owner, token, leaseMs, perHost, timeoutMs, defPace, margin,
-- maxPagesPerHost (0 none), maxPages reached ('1'), limited kinds (",k,...,").
-- Takes back up to 16 expired leases of the shard, then leases the first
-- ready host due: {'robots', id, auth, ver} or {'url', id, auth, ver, entry};
-- or, when a page limit is reached for that host, takes the limited
-- entries off its queue head (at most 64): {'skip', auth, host pages,
-- entry...}; or {'none', next ready score or -1, leases outstanding, now}.
local owner, token = ARGV[1], ARGV[2]
local leaseMs, perHost, timeoutMs = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local defPace, margin = ARGV[6], tonumber(ARGV[7])
local maxPerHost, maxReached, limitedKinds = tonumber(ARGV[8]), ARGV[9] == '1', ARGV[10]
local now = nowms()
local expired = redis.call('ZRANGE', base .. 'leases', '-inf', now, 'BYSCORE', 'LIMIT', 0, 16)
for _, id in ipairs(expired) do
  local auth = takeBack(id, timeoutMs, true)
  if auth then putBack(auth, now, perHost, defPace, margin) end
end

local function lease(auth, st, kind, entry)
  local hk = base .. 'h:' .. auth
  local id = auth .. '#' .. redis.call('HINCRBY', hk, 'nlease', 1)
  redis.call('HSET', base .. 'l:' .. id, 'auth', auth, 'entry', entry, 'kind', kind,
    'owner', owner, 'token', token, 'started', 0, 'ver', st.ver)
  redis.call('ZADD', base .. 'leases', now + leaseMs, id)
  redis.call('HINCRBY', hk, 'inflight', 1)
  redis.call('HINCRBY', base .. 'count', 'leased', 1)
  return id
end

-- limitSkip takes the limited entries off auth's queue head when a page
-- limit is reached for it: nil when none were taken.
local function limitSkip(auth, q)
  local pages = num(redis.call('HGET', base .. 'h:' .. auth, 'pages'))
  if not maxReached and (maxPerHost <= 0 or pages < maxPerHost) then return nil end
  local out = {'skip', auth, tostring(pages)}
  for _ = 1, 64 do
    local e = redis.call('LINDEX', q, 0)
    if not e or not string.find(limitedKinds, ',' .. string.match(e, '^(%d+),') .. ',', 1, true) then break end
    redis.call('LPOP', q)
    out[#out + 1] = e
  end
  if #out == 3 then return nil end
  redis.call('HINCRBY', base .. 'count', 'queued', 3 - #out)
  redis.call('HINCRBY', base .. 'count', 'done', #out - 3)
  if redis.call('LLEN', q) == 0 then redis.call('ZREM', base .. 'ready', auth) end
  return out
end

for _ = 1, 32 do
  local r = redis.call('ZRANGE', base .. 'ready', 0, 0, 'WITHSCORES')
  if #r == 0 then break end
  local auth, score = r[1], tonumber(r[2])
  if score > now then
    return {'none', tostring(score), redis.call('ZCARD', base .. 'leases'), tostring(now)}
  end
  local st = hostState(auth, defPace)
  local q = base .. 'q:' .. auth
  local skipped = nil
  if st.dropped == '' then skipped = limitSkip(auth, q) end
  if skipped then return skipped end
  if st.dropped ~= '' or st.inflight >= perHost or st.rstate == 'leased' then
    redis.call('ZREM', base .. 'ready', auth)
  elseif needsRobots(auth, st) then
    if st.rretry > now then
      redis.call('ZADD', base .. 'ready', st.rretry, auth)
    else
      redis.call('ZREM', base .. 'ready', auth)
      redis.call('HSET', base .. 'h:' .. auth, 'rstate', 'leased')
      return {'robots', lease(auth, st, 'robots', ''), auth, tostring(st.ver)}
    end
  else
    local e = redis.call('LPOP', q)
    if e then
      redis.call('HINCRBY', base .. 'count', 'queued', -1)
      local id = lease(auth, st, 'url', e)
      if st.inflight + 1 >= perHost or redis.call('LLEN', q) == 0 then
        redis.call('ZREM', base .. 'ready', auth)
      end
      return {'url', id, auth, tostring(st.ver), e}
    end
    redis.call('ZREM', base .. 'ready', auth)
  end
end
local r = redis.call('ZRANGE', base .. 'ready', 0, 0, 'WITHSCORES')
local nextScore = '-1'
if #r > 0 then nextScore = r[2] end
return {'none', nextScore, redis.call('ZCARD', base .. 'leases'), tostring(now)}
`
