package redisfrontier

// observeLua is the Lua source of the observe script (see scripts.go).
const observeLua = `
-- observe: ARGV auth, outcome, durMs, retryAfterMs (-1 none), factor,
-- backoffBase, backoffMax. Ports the scheduler's Observe: the adaptive
-- delay, the back-off (streak, doubling, until) and Retry-After in full.
-- Returns {streak, backoff, until}.
local hk = base .. 'h:' .. ARGV[1]
local o, dur, ra = ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
local factor, bbase, bmax = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local now = nowms()
local v = redis.call('HMGET', hk, 'unans', 'adaptive', 'streak', 'backoff', 'until')
local unans, adaptive, streak, backoff, untl = num(v[1]), num(v[2]), num(v[3]), num(v[4]), num(v[5])
if unans > 0 then redis.call('HSET', hk, 'unans', unans - 1) end
if factor > 0 and dur > 0 then
  local a = math.ceil(factor * dur)
  if o == 'answer' or a > adaptive then adaptive = a end
end
if o == 'answer' then
  streak, backoff = 0, 0
elseif o ~= 'server-error' then
  streak = streak + 1
  local b = 0
  if bbase > 0 then
    b = bbase
    for _ = 2, streak do
      if b >= bmax / 2 then b = bmax; break end
      b = b * 2
    end
    if b > bmax then b = bmax end
  end
  if b > backoff then backoff = b end
  if now + b > untl then untl = now + b end
  if o == 'overload' and ra >= 0 and now + ra >= untl then untl = now + ra end
end
redis.call('HSET', hk, 'adaptive', adaptive, 'streak', streak, 'backoff', backoff, 'until', untl)
return {streak, tostring(backoff), tostring(untl)}
`
