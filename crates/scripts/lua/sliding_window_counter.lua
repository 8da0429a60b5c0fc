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
local function nums(A) return A[4] + 0, A[5] + 0 end
--@prelude
if not (ok and limit * period <= 2251799813685247 and cost <= limit) then
--@explain
  product('limit', limit)
  fits(limit)
  return redis.error_reply('ERR ratelab ' .. NAME .. ': ' .. E)
end

local k = (now - now % period) / period
local prev, curr = 0, 0
local v = call('GET', KEYS[1])
if v then
  local tag, sk, sp, sc
  if #v == 25 then tag, sk, sp, sc = struct.unpack('<Bddd', v) end
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
local remaining = (slack_w + -slack_w % period) / period

-- retry (i = 1: cost, when denied) and reset (i = 2: remaining + 1, when not all N
-- would pass; the estimate decays as the previous window slides out, continuous
-- across its end): the first whole ms at which a request of cost c would pass if
-- nothing else comes, from the counts after this decision. In this window, the
-- least elapsed e' < W, not before now, with prev · (W − e') < (N − curr − c + 1) · W;
-- else in the next (prev = curr, curr = 0) or, failing that, the one after.
local retry, reset = 0, 0
for i = allowed and 2 or 1, remaining < limit and 2 or 1 do
  local c, r = i == 1 and cost or remaining + 1, nil
  local x = (limit - curr - c + 1) * period
  if x > 0 then
    local e = 0
    if prev > 0 then e = period + 1 - (x + -x % prev) / prev end
    if e < 0 then e = 0 end
    if e >= elapsed and e < period then r = e - elapsed end
  end
  if not r then
    local e = 0
    if curr > 0 then
      x = (limit - c + 1) * period
      e = period + 1 - (x + -x % curr) / curr
      if e < 0 then e = 0 elseif e > period then e = period end
    end
    r = period - elapsed + e
  end
  if i == 1 then retry = r else reset = r end
end

local rest = 0
if curr > 0 then
  rest = (k + 2) * period - now
elseif prev > 0 then
  rest = (k + 1) * period - now
end
if allowed then
  local state = struct.pack('<Bddd', TAG, k, prev, curr)
--@store
end
return {allowed and 1 or 0, 0, 1, retry, 1, reset, 1, remaining, rest, now, 3}
