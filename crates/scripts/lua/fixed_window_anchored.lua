-- ratelab fixed_window_anchored: N per window opened by the first request,
-- [t0, t0 + W); the first request at or after its end opens the next one (Laravel's
-- style). Windows follow the client, not the clock; still up to 2N in some W.
--
-- KEYS[1]  the limiter's key
-- ARGV     now|TIME, cost, slack_ms, limit N, period_ms W
-- State    'a', start, count (struct '<Bdd', 17 bytes): when the open window opened,
--          the requests counted in it.
-- TTL      the end of the open window.
local NAME, TAG = 'fixed_window_anchored', 97 -- 'a'
local function nums(A) return A[4] + 0, A[5] + 0 end
--@prelude
if not (ok and cost <= limit) then
--@explain
  fits(limit)
  return redis.error_reply('ERR ratelab ' .. NAME .. ': ' .. E)
end

local start, count = now, 0
local v = call('GET', KEYS[1])
if v then
  local tag, s0, sn
  if #v == 17 then tag, s0, sn = struct.unpack('<Bdd', v) end
  if tag ~= TAG or not (s0 % 1 == 0 and sn % 1 == 0 and s0 >= 0 and sn >= 0
    and s0 + sn < 9007199254740992) then
--@foreign
  end
  if now < s0 then now = s0 end -- a clock that stepped back
  if now < s0 + period then start, count = s0, sn end
end
local finish = start + period
local allowed = count + cost <= limit
local left = finish - now
if allowed then
  count = count + cost
  local state, rest = struct.pack('<Bdd', TAG, start, count), left
--@store
end
return {allowed and 1 or 0, 0, 1, allowed and 0 or left, 1, left, 1, limit - count, left, now, 2}
