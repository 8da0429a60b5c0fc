-- ratelab fixed_window_anchored: N per window opened by the first request,
-- [t0, t0 + W); the first request at or after its end opens the next one (Laravel's
-- style). Windows follow the client, not the clock; still up to 2N in some W.
--
-- KEYS[1]  the limiter's key
-- ARGV     now|TIME, cost, slack_ms, limit N, period_ms W
-- State    "start:count": when the open window opened, the requests counted in it.
-- TTL      the end of the open window.
local NAME = 'fixed_window_anchored'
--@prelude
fits(limit)
if E then return redis.error_reply('ERR ratelab ' .. NAME .. ': ' .. E) end

local start, count = now, 0
local v = redis.call('GET', KEYS[1])
if v then
  local a, b = string.match(v, '^(%d+):(%d+)$')
  local s0, sn = tonumber(a), tonumber(b)
  if not sn then return redis.error_reply('ERR ratelab ' .. NAME .. ': the key holds ' .. v .. ", not this limiter's state") end
  if now < s0 then now = s0 end -- a clock that stepped back
  if now < s0 + period then start, count = s0, sn end
end
local finish = start + period
local allowed = count + cost <= limit
if allowed then
  count = count + cost
  store(KEYS[1], format('%d:%d', start, count), finish - now)
end
local left = finish - now
return {allowed and 1 or 0, 0, 1, allowed and 0 or left, 1, left, 1, limit - count, left, now, 2}
