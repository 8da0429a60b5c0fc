-- ratelab sliding_window_counter (Cloudflare, 2017): the current clock-aligned
-- window's count plus the previous one's, weighted by how much of it the sliding
-- window (t − W, t] still covers. Allow if prev · (1 − elapsed / W) + curr < N,
-- computed exactly as prev · (W − elapsed) + curr · W < N · W. An estimate: it
-- assumes the previous window's requests were spread evenly.
--
-- KEYS[1]  the limiter's key
-- ARGV     now|TIME, cost, slack_ms, limit N, period_ms W   (N · W < 2^51)
-- State    'c', k, prev, curr (struct '<Bddd', 25 bytes): the current window index
--          and both counts.
-- TTL      two windows after the last counted request's window (when prev and curr
--          are both 0 again).
local NAME, TAG = 'sliding_window_counter', 99 -- 'c'
--@prelude
if not (ok and limit * period <= 2251799813685247 and cost <= limit) then
--@explain
  product('limit', limit)
  fits(limit)
  return redis.error_reply('ERR ratelab ' .. NAME .. ': ' .. E)
end

local k = floor(now / period)
local prev, curr = 0, 0
local v = redis.call('GET', KEYS[1])
if v then
  local tag, sk, sp, sc
  if #v == 25 then tag, sk, sp, sc = unpack('<Bddd', v) end
  if tag ~= TAG or not (sk % 1 == 0 and sp % 1 == 0 and sc % 1 == 0 and sk >= 0 and sp >= 0
    and sc >= 0 and sk + sp + sc < 9007199254740992) then
--@foreign
  end
  if sk >= k then
    k, prev, curr = sk, sp, sc
    if now < k * period then now = k * period end
  elseif sk == k - 1 then
    prev = sc -- the window just ended becomes the previous one
  end
end
local elapsed = now - k * period
local weighted = prev * (period - elapsed)
local nw = limit * period
-- As if `cost` requests came one after another: the last one must still fit.
local allowed = weighted + (curr + cost - 1) * period < nw
if allowed then curr = curr + cost end

-- Requests of cost 1 that would still pass now: ceil(slack / W).
local slack_w = nw - weighted - curr * period
if slack_w < 0 then slack_w = 0 end
local remaining = ceil(slack_w / period)

-- The first whole ms at which a request of cost c that does not pass now would
-- pass, if nothing else comes (from the counts after this decision).
local function first_pass(c)
  -- The least elapsed e' < W with p · (W − e') < x, or nil.
  local function first_fit(p, x)
    if x <= 0 then return nil end
    if p == 0 then return 0 end
    local e = period + 1 - ceil(x / p)
    if e < 0 then e = 0 end
    if e < period then return e end
    return nil
  end
  local fit
  if curr + c - 1 < limit then
    fit = first_fit(prev, (limit - curr - c + 1) * period)
    if fit and fit < elapsed then fit = nil end
  end
  if fit then return fit - elapsed end
  -- The next window (prev = curr, curr = 0); failing that, the one after it.
  return period - elapsed + (first_fit(curr, (limit - c + 1) * period) or period)
end
local retry = 0
if not allowed then retry = first_pass(cost) end
-- When remaining next grows: not the window's end (the estimate decays as the
-- previous window slides out, and is continuous across the end) but the moment a
-- request of cost remaining + 1 would pass. 0 when all N would pass.
local reset = 0
if remaining < limit then reset = first_pass(remaining + 1) end

local rest = 0
if curr > 0 then
  rest = (k + 2) * period - now
elseif prev > 0 then
  rest = (k + 1) * period - now
end
if allowed then
  local state = pack('<Bddd', TAG, k, prev, curr)
--@store
end
return {allowed and 1 or 0, 0, 1, retry, 1, reset, 1, remaining, rest, now, 3}
