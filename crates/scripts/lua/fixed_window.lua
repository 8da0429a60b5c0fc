-- ratelab fixed_window: N per clock-aligned window [k·W, (k+1)·W).
-- Up to 2N pass in any W (N at the end of one window, N at the start of the next).
--
-- KEYS[1]  the limiter's key
-- ARGV     now|TIME, cost, slack_ms, limit N, period_ms W
-- State    'w', k, count (struct '<Bdd', 17 bytes): the window index and the
--          requests counted in it.
-- TTL      the end of the window.
local NAME, TAG = 'fixed_window', 119 -- 'w'
local function nums(A) return A[4] + 0, A[5] + 0 end
--@prelude
if not (ok and cost <= limit) then
--@explain
  fits(limit)
  return redis.error_reply('ERR ratelab ' .. NAME .. ': ' .. E)
end

local k = (now - now % period) / period
local count = 0
local v = call('GET', KEYS[1])
if v then
  local tag, sk, sn
  if #v == 17 then tag, sk, sn = struct.unpack('<Bdd', v) end
  if tag ~= TAG or not (sk % 1 == 0 and sn % 1 == 0 and sk >= 0 and sn >= 0
    and sk + sn < 9007199254740992) then
--@foreign
  end
  -- Still the stored window (or a clock that stepped back into it).
  if sk >= k then
    k, count = sk, sn
    if now < k * period then now = k * period end
  end
end
local finish = (k + 1) * period
local allowed = count + cost <= limit
local left = finish - now
if allowed then
  count = count + cost
  local state, rest = struct.pack('<Bdd', TAG, k, count), left
--@store
end
return {allowed and 1 or 0, 0, 1, allowed and 0 or left, 1, left, 1, limit - count, left, now, 2}
