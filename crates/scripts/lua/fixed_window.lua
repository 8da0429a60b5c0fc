-- ratelab fixed_window: N per clock-aligned window [k·W, (k+1)·W).
-- Up to 2N pass in any W (N at the end of one window, N at the start of the next).
--
-- KEYS[1]  the limiter's key
-- ARGV     now|TIME, cost, slack_ms, limit N, period_ms W
-- State    "k:count": the window index and the requests counted in it.
-- TTL      the end of the window.
local NAME = 'fixed_window'
--@prelude
local limit = int('limit', ARGV[4], 1, 4294967295)
local period = int('period_ms', ARGV[5], 1, BIG - 1)
if not E and cost > limit then
  E = 'cost: ' .. S(cost) .. ' exceeds what this limiter can ever allow at once (' .. S(limit) .. '), so it could never pass'
end
if E then return refuse() end

local k = math.floor(now / period)
local count = 0
local v = redis.call('GET', KEYS[1])
if v then
  local a, b = string.match(v, '^(%d+):(%d+)$')
  local sk, sn = tonumber(a), tonumber(b)
  if not sn then return bad_state(v) end
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
  store(KEYS[1], string.format('%d:%d', k, count), finish - now)
end
local left = finish - now
return reply(allowed, 0, 1, allowed and 0 or left, 1, left, 1, limit - count, left, 2)
