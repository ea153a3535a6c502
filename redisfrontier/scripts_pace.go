package redisfrontier

// paceLua is the first half of the prelude every script starts with: the
// pace functions (a port of the scheduler's earliest over a pace table).
const paceLua = `
-- pace: the pace functions shared by the scripts (a port of the
-- scheduler's earliest over a pace table). Times are Unix milliseconds.
local DAY = 86400000
local MINUTE = 60000

-- nowms returns Redis's clock in whole milliseconds, rounded down, and the
-- same rounded up (a start is recorded rounded up, so that a gap measured
-- from it is never shorter than the interval).
local function nowms()
  local t = redis.call('TIME')
  local us = tonumber(t[2])
  local ms = tonumber(t[1]) * 1000 + math.floor(us / 1000)
  if us % 1000 > 0 then return ms, ms + 1 end
  return ms, ms
end

-- parsePace reads "to:iv:flags,..." (segments from minute 0 in order;
-- flags bit 0 open, bit 1 a rate boundary at to).
local function parsePace(s)
  local segs, from = {}, 0
  for to, iv, fl in string.gmatch(s, '(%d+):(%d+):(%d+)') do
    fl = tonumber(fl)
    segs[#segs + 1] = {from = from, to = tonumber(to), iv = tonumber(iv),
      open = (fl % 2 == 1), rb = (math.floor(fl / 2) % 2 == 1)}
    from = tonumber(to)
  end
  return segs
end

-- segAt returns the index of the segment holding t and t's day start.
local function segAt(segs, t)
  local day = t - (t % DAY)
  local m = math.floor((t - day) / MINUTE)
  for i, s in ipairs(segs) do
    if m < s.to then return i, day end
  end
  return #segs, day
end

-- nextOpen returns the start of the first open segment after t's.
local function nextOpen(segs, t)
  local i, day = segAt(segs, t)
  for _ = 1, 2 * #segs do
    i = i + 1
    if i > #segs then i, day = 1, day + DAY end
    if segs[i].open then return day + segs[i].from * MINUTE end
  end
  return nil
end

-- nextRateBoundary returns the first rate boundary after t, or nil.
local function nextRateBoundary(segs, t)
  local i, day = segAt(segs, t)
  for _ = 1, #segs + 1 do
    if segs[i].rb then return day + segs[i].to * MINUTE end
    i = i + 1
    if i > #segs then i, day = 1, day + DAY end
  end
  return nil
end

-- earliest ports the scheduler's earliest: the first instant at or after
-- now inside an open segment, not before h.untl, and at
-- least the interval in force then (the segment's, the adaptive delay, the
-- back-off, plus margin) after h.last. Returns the instant, whether a
-- closed Visit-time period pushed it, and the interval in force.
local function earliest(now, h, margin)
  local segs = h.segs
  local t = now
  if h.untl > t then t = h.untl end
  local parked = false
  for _ = 1, 1000 do
    local i = segAt(segs, t)
    local s = segs[i]
    if not s.open then
      t = nextOpen(segs, t)
      if t == nil then break end
      parked = true
    else
      local iv = math.max(s.iv, h.adaptive, h.backoff)
      if iv > 0 then iv = iv + margin end
      if h.last <= 0 then return t, parked, iv end
      local need = h.last + iv
      if t >= need then return t, parked, iv end
      local b = nextRateBoundary(segs, t)
      if b == nil or need < b then t = need else t = b end
    end
  end
  return now + DAY, true, DAY
end
`
