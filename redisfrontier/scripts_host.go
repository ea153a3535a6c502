package redisfrontier

// hostLua is the second half of the prelude every script starts with: a
// host's record as the scripts read it, its moves into the ready set, the
// end of a lease and the giving up of a host.
const hostLua = `
-- host: a host's record as the scripts read it, the moves of a host into
-- the ready set, the end of a lease and the giving up of a host. KEYS[1]
-- is the shard's key prefix "P{sN}:".
local base = KEYS[1]

local function num(v)
  if v == false or v == nil or v == '' then return 0 end
  return tonumber(v) or 0
end

-- hostState reads the pacing fields of auth's record; pace falls back to
-- defPace (the table of a host whose robots.txt is not read yet).
local function hostState(auth, defPace)
  local v = redis.call('HMGET', base .. 'h:' .. auth, 'last', 'until', 'adaptive',
    'backoff', 'pace', 'inflight', 'dropped', 'rstate', 'rretry', 'unans', 'ver')
  local pace = v[5]
  if pace == false or pace == '' then pace = defPace end
  return {last = num(v[1]), untl = num(v[2]), adaptive = num(v[3]), backoff = num(v[4]),
    segs = parsePace(pace), inflight = num(v[6]), dropped = v[7] or '', rstate = v[8] or '',
    rretry = num(v[9]), unans = num(v[10]), ver = num(v[11])}
end

-- needsRobots: the host's next lease is its robots.txt.
local function needsRobots(auth, st)
  return st.rstate ~= 'ok' or redis.call('EXISTS', base .. 'robots:' .. auth) == 0
end

-- putBack puts auth in the ready set, scored by its earliest start from
-- now, when it is not dropped, has fewer than perHost leases, no robots
-- lease out, and URLs queued. A host already there keeps the lower score.
local function putBack(auth, now, perHost, defPace, margin)
  local st = hostState(auth, defPace)
  if st.dropped ~= '' or st.inflight >= perHost or st.rstate == 'leased' then return end
  if redis.call('LLEN', base .. 'q:' .. auth) == 0 then return end
  local robots = needsRobots(auth, st)
  local t = earliest(now, st, margin)
  if robots and st.rretry > t then t = st.rretry end
  redis.call('ZADD', base .. 'ready', 'LT', t, auth)
end

-- endLease deletes lease id and its expiry entry, and ends its hold on
-- its host: the host's leases in flight (not below 0) and the shard's
-- leased count drop by one, and a robots lease ends the host's robots
-- turn. Returns the lease's fields {auth, entry, kind, started}; auth is
-- false, and no host is touched, when there is no such lease.
local function endLease(id)
  local lk = base .. 'l:' .. id
  local v = redis.call('HMGET', lk, 'auth', 'entry', 'kind', 'started')
  redis.call('DEL', lk)
  redis.call('ZREM', base .. 'leases', id)
  local l = {auth = v[1], entry = v[2], kind = v[3], started = v[4]}
  if l.auth == false then return l end
  local hk = base .. 'h:' .. l.auth
  if num(redis.call('HINCRBY', hk, 'inflight', -1)) < 0 then redis.call('HSET', hk, 'inflight', 0) end
  redis.call('HINCRBY', base .. 'count', 'leased', -1)
  if l.kind == 'robots' and redis.call('HGET', hk, 'rstate') == 'leased' then
    redis.call('HSET', hk, 'rstate', '')
  end
  return l
end

-- dropHost gives auth up for the run with reason, unless it already is:
-- true when it was given up now.
local function dropHost(auth, reason)
  local hk = base .. 'h:' .. auth
  if (redis.call('HGET', hk, 'dropped') or '') ~= '' then return false end
  redis.call('HSET', hk, 'dropped', reason)
  redis.call('SADD', base .. 'dropped', auth)
  redis.call('HINCRBY', base .. 'count', 'dropped', 1)
  return true
end

-- takeBack returns an expired lease: its URL to the front of its queue,
-- its robots turn to the host; a request it started and saw no end of
-- counts as lasting timeoutMs (the host's next start waits for start +
-- timeout + pace). expired counts it among the leases taken back.
local function takeBack(id, timeoutMs, expired)
  local l = endLease(id)
  local auth = l.auth
  if auth == false then return nil end
  local hk = base .. 'h:' .. auth
  if expired then redis.call('HINCRBY', base .. 'count', 'takenback', 1) end
  if l.kind ~= 'robots' then
    redis.call('LPUSH', base .. 'q:' .. auth, l.entry)
    redis.call('HINCRBY', base .. 'count', 'queued', 1)
  end
  local started = num(l.started)
  if started > 0 and num(redis.call('HGET', hk, 'unans')) > 0 then
    redis.call('HINCRBY', hk, 'unans', -1)
    if started + timeoutMs > num(redis.call('HGET', hk, 'last')) then
      redis.call('HSET', hk, 'last', started + timeoutMs)
    end
  end
  return auth
end
`
