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
if redis.call('HGET', base .. 'l:' .. id, 'token') ~= token then return {'stale'} end
local kind = endLease(id).kind
local hk, q = base .. 'h:' .. auth, base .. 'q:' .. auth
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
    if n >= maxFailures and dropHost(auth, 'host-failing: ' .. n .. ' URLs in a row failed at the connection level') then
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
