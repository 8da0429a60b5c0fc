-- ratelab fixed_window: N per clock-aligned window [k·W, (k+1)·W).
-- Up to 2N pass in any W (N at the end of one window, N at the start of the next).
--
-- KEYS[1]  the limiter's key
-- ARGV     now|TIME, cost, slack_ms, limit N, period_ms W
-- State    "k:count": the window index and the requests counted in it.
-- TTL      the end of the window.
local NAME = 'fixed_window'
--@prelude
fits(limit)
if E then return redis.error_reply('ERR ratelab ' .. NAME .. ': ' .. E) end

local k = floor(now / period)
local count = 0
local v = redis.call('GET', KEYS[1])
if v then
  local a, b = string.match(v, '^(%d+):(%d+)$')
  local sk, sn = tonumber(a), tonumber(b)
  if not sn then return redis.error_reply('ERR ratelab ' .. NAME .. ': the key holds ' .. v .. ", not this limiter's state") end
  -- Still the stored window (or a clock that stepped back into it).
  if sk >= k then
    k, count = sk, sn
    if now < k * period then now = k * period end
  end
end
local finish = (k + 1) * period
local allowed = count + cost <= limit
if allowed then
  count = count + cost
  store(KEYS[1], format('%d:%d', k, count), finish - now)
end
local left = finish - now
return {allowed and 1 or 0, 0, 1, allowed and 0 or left, 1, left, 1, limit - count, left, now, 2}
