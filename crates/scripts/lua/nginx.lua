-- ratelab nginx: nginx's limit_req, with nginx's own integer arithmetic
-- (ngx_http_limit_req_module.c). State per key: excess in 1/1000 request and the
-- time of the last accepted request. The first request passes with excess 0; later
-- ones: excess = max(0, excess − rate · Δms / 1000 + 1000), rate in 1/1000 request
-- per second (N · 1000000 / W, rounded down as nginx rounds 100r/m to 1666). If
-- excess > burst · 1000 the request is rejected and nothing changes; else it is
-- stored, and the request is delayed (excess − delay · 1000) · 1000 / rate ms when
-- excess > delay · 1000. nodelay never delays. burst=5 admits 6 at once.
--
-- KEYS[1]  the limiter's key
-- ARGV     now|TIME, cost, slack_ms, limit N, period_ms W, burst, delay|nodelay
-- State    'n', excess, last (struct '<Bdd', 17 bytes).
-- TTL      when the excess has drained so far that a request would start from 0.
local NAME, TAG = 'nginx', 110 -- 'n'
local function nums(A) return A[4] + 0, A[5] + 0, A[6] + 0, A[7] ~= 'nodelay' and A[7] + 0 end
--@prelude
local floor, ceil, nodelay = math.floor, math.ceil, A[7] == 'nodelay'
local rate = ok and floor(limit * 1000000 / period)
if not (ok and burst % 1 == 0 and burst >= 0 and burst <= MAX32
  and (nodelay or (delay % 1 == 0 and delay >= 0 and delay <= MAX32))
  and rate >= 1 and cost <= burst + 1) then
--@explain
  burst = int('burst', A[6], 0, MAX32)
  if not nodelay then int('delay', A[7], 0, MAX32) end
  if not E and floor(limit * 1000000 / period) < 1 then
    E = 'period_ms: nginx needs a rate of at least 0.001 requests per second (limit · 1000000 / period_ms ≥ 1)'
  end
  fits(burst + 1)
  return redis.error_reply('ERR ratelab ' .. NAME .. ': ' .. E)
end
burst = burst * 1000
if nodelay then delay = nil else delay = delay * 1000 end

local stored, last
local v = call('GET', KEYS[1])
if v then
  local tag
  if #v == 17 then tag, stored, last = struct.unpack('<Bdd', v) end
  if tag ~= TAG or not (stored % 1 == 0 and last % 1 == 0 and stored >= 0 and last >= 0
    and stored + last < 9007199254740992) then
--@foreign
  end
  if now < last then now = last end -- a clock that stepped back (nginx: ms < 0 → 0)
end
-- Drained: `stored` at `last` with `add` more is now (stored + add) − rate ·
-- (now − last) / 1000 rounded down, at least 0; the product is only taken while that
-- is above 0 (below 2^53). For this request (add = cost · 1000), then one more (1000).
local excess = (cost - 1) * 1000
if stored then
  excess = stored + cost * 1000
  if now - last >= ceil(excess * 1000 / rate) then excess = 0
  else excess = excess - floor(rate * (now - last) / 1000) end
end
local allowed = excess <= burst
local wait = 0
if allowed and delay and excess > delay then wait = floor((excess - delay) * 1000 / rate) end
if allowed then stored, last = excess, now end

-- Requests admitted at once right after this one, and when one more would be.
local next_excess = stored + 1000
if now - last >= ceil(next_excess * 1000 / rate) then next_excess = 0
else next_excess = next_excess - floor(rate * (now - last) / 1000) end
local remaining = 0
if next_excess <= burst then remaining = floor((burst - next_excess) / 1000) + 1 end
-- ms from now until a request of cost c would be admitted, from (stored, last):
-- retry (i = 1, c = cost, when denied) and reset (i = 2, c = remaining + 1).
local retry, reset = 0, 0
for i = allowed and 2 or 1, remaining <= burst / 1000 and 2 or 1 do
  local need = stored + (i == 1 and cost or remaining + 1) * 1000 - burst
  if need < 0 then need = 0 end
  local ms = ceil(need * 1000 / rate) - (now - last)
  if ms < 0 then ms = 0 end
  if i == 1 then retry = ms else reset = ms end
end
local rest = ceil((stored + 1000) * 1000 / rate) - (now - last)
if rest < 0 then rest = 0 end
if allowed then
  local state = struct.pack('<Bdd', TAG, stored, now)
--@store
end
return {allowed and 1 or 0, wait, 1, retry, 1, reset, 1, remaining, rest, now, 2}
