-- ratelab gcra (the generic cell rate algorithm, a leaky bucket as a meter): one
-- time, the theoretical arrival time TAT. T = W / N, τ = T · (b − 1). On a request
-- at t: t' = max(TAT, t); deny if t' − t > τ, else TAT = t' + T (c · T for cost c).
-- The same decisions as the token bucket with capacity b, on every stream.
--
-- Times are counted in 1/N ms, so T is the whole number W.
--
-- KEYS[1]  the limiter's key
-- ARGV     now|TIME, cost, slack_ms, limit N, period_ms W, burst b   (b · W < 2^51)
-- State    'g', ahead, last (struct '<Bdd', 17 bytes): TAT kept as how far it runs
--          ahead of the last request (in 1/N ms), and that request's time;
--          TAT = last + ahead / N.
-- TTL      when TAT is reached (the meter is empty again).
local NAME, TAG = 'gcra', 103 -- 'g'
local function nums(A) return A[4] + 0, A[5] + 0, A[6] + 0 end
--@prelude
if not (ok and burst % 1 == 0 and burst >= 1 and burst <= MAX32
  and burst * period <= 2251799813685247 and cost <= burst) then
--@explain
  burst = int('burst', A[6], 1, MAX32)
  product('burst', burst)
  fits(burst)
  return redis.error_reply('ERR ratelab ' .. NAME .. ': ' .. E)
end

local horizon = burst * period -- τ + T
--@ahead_state

local inc = cost * period
-- For cost 1 this is t' − t ≤ τ.
local allowed = lead + inc <= horizon
if allowed then lead = lead + inc end
local rest = (lead + -lead % limit) / limit
if allowed then
  local state = struct.pack('<Bdd', TAG, lead, now)
--@store
end
-- As a bucket: tokens = (τ + T − (TAT − t)) / T.
local tokens = horizon - lead
local reset_n = 0
if lead > 0 then reset_n = period - tokens % period end
return {allowed and 1 or 0, 0, 1, allowed and 0 or lead + inc - horizon, limit, reset_n, limit,
  (tokens - tokens % period) / period, rest, now, 1}
