package redisfrontier

// finishLua is the Lua source of the finish script (see scripts.go).
const finishLua = `
-- finish: ARGV auth, id, token, action, entry, perHost, defPace, margin,
-- outcome, urlfp, maxFailures, fetched, page (1: counts against the page
-- limits: the host's pages grow by one).
-- {'stale'} when the lease was taken back or is another's: nothing is
-- applied. Else the lease ends and its URL is, by action: 'done' (fetched
-- when fetched is 1), 'requeue' (front of its queue), 'retry' (tail, as one
-- more attempt), and the host goes back to the ready set at its earliest
-- start. A connection failure on a URL not among the host's failing ones
-- counts towards dropping it at maxFailures: {'ok'}.
local auth, id, token, action, entry = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local perHost, defPace, margin = tonumber(ARGV[6]), ARGV[7], tonumber(ARGV[8])
local outcome, urlfp, maxFailures = ARGV[9], ARGV[10], tonumber(ARGV[11])
local lk = base .. 'l:' .. id
if redis.call('HGET', lk, 'token') ~= token then return {'stale'} end
local kind = redis.call('HGET', lk, 'kind')
redis.call('DEL', lk)
redis.call('ZREM', base .. 'leases', id)
local hk, q = base .. 'h:' .. auth, base .. 'q:' .. auth
if num(redis.call('HINCRBY', hk, 'inflight', -1)) < 0 then redis.call('HSET', hk, 'inflight', 0) end
redis.call('HINCRBY', base .. 'count', 'leased', -1)
if kind == 'robots' and redis.call('HGET', hk, 'rstate') == 'leased' then
  redis.call('HSET', hk, 'rstate', '')
end
if kind == 'robots' then
  -- a robots lease carries no URL: its host's robots turn ends
elseif action == 'done' then
  redis.call('HINCRBY', base .. 'count', 'done', 1)
  if ARGV[13] == '1' then redis.call('HINCRBY', hk, 'pages', 1) end
  if ARGV[12] == '1' then
    redis.call('HINCRBY', hk, 'fetched', 1)
    redis.call('HINCRBY', base .. 'count', 'fetched', 1)
  end
elseif action == 'retry' then
  redis.call('RPUSH', q, entry)
  redis.call('HINCRBY', base .. 'count', 'queued', 1)
elseif action == 'requeue' then
  redis.call('LPUSH', q, entry)
  redis.call('HINCRBY', base .. 'count', 'queued', 1)
end
if outcome == 'no-answer' or outcome == 'unreachable' then
  local failing = redis.call('HGET', hk, 'failing') or ''
  if not string.find(',' .. failing .. ',', ',' .. urlfp .. ',', 1, true) then
    if failing == '' then failing = urlfp else failing = failing .. ',' .. urlfp end
    redis.call('HSET', hk, 'failing', failing)
    local n = redis.call('HINCRBY', hk, 'failures', 1)
    if n >= maxFailures and (redis.call('HGET', hk, 'dropped') or '') == '' then
      redis.call('HSET', hk, 'dropped', 'host-failing: ' .. n .. ' URLs in a row failed at the connection level')
      redis.call('SADD', base .. 'dropped', auth)
      redis.call('HINCRBY', base .. 'count', 'dropped', 1)
      redis.call('ZREM', base .. 'ready', auth)
    end
  end
elseif outcome ~= '' and outcome ~= 'none' then
  redis.call('HSET', hk, 'failing', '', 'failures', 0)
end
local now = nowms()
putBack(auth, now, perHost, defPace, margin)
return {'ok'}
`
