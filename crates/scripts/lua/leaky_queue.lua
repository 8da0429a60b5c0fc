-- ratelab leaky_queue (a leaky bucket as a queue: shaping): requests leave evenly,
-- one every gap = W / N; a request waits for its slot, and is rejected only when
-- `capacity` are already waiting. out = max(next_out, t); reject if
-- (out − t) / gap ≥ capacity; else next_out = out + gap and the request waits out − t.
-- This script decides and says how long to wait; the caller holds the request
-- for that long (Redis holds nothing).
--
-- Times are counted in 1/N ms, so the gap is the whole number W.
--
-- KEYS[1]  the limiter's key
-- ARGV     now|TIME, cost, slack_ms, limit N, period_ms W, capacity   (capacity · W < 2^51)
-- State    'q', ahead, last (struct '<Bdd', 17 bytes): next_out kept as how far it
--          runs ahead of the last request (in 1/N ms), and that request's time.
-- TTL      when the last accepted request has left (the queue is empty).
local NAME, TAG = 'leaky_queue', 113 -- 'q'
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

local full = burst * period -- capacity · gap
--@ahead_state

-- For cost 1 this is (out − t) / gap < capacity.
local ahead = lead + (cost - 1) * period
local allowed = ahead < full
local after = lead
if allowed then after = lead + cost * period end
local retry = 0
if not allowed then
  retry = ahead - full
  retry = (retry - retry % limit) / limit + 1
end
-- Requests of cost 1 that would still be queued now, and when one more fits.
local room = full - after
if room < 0 then room = 0 end
local remaining = (room + -room % period) / period
local reset_n = 0
if after > 0 then reset_n = after + remaining * period - full + 1 end
local rest = (after + -after % limit) / limit
if allowed then
  local state = struct.pack('<Bdd', TAG, after, now)
--@store
end
return {allowed and 1 or 0, allowed and lead or 0, limit, retry, 1, reset_n, limit, remaining, rest, now, 1}
