-- ratelab token_bucket: capacity b, refilled with N tokens per W, full at first,
-- refilled lazily on each request; a request of cost c takes c tokens or is denied
-- (a denial takes nothing). At most b + N·T/W in any interval T.
--
-- Tokens are counted in 1/W of a token, so the refill N · Δt is a whole number and
-- a request that finds exactly one token passes (the float version published
-- everywhere does not: see the teaching variant).
--
-- KEYS[1]  the limiter's key
-- ARGV     now|TIME, cost, slack_ms, limit N, period_ms W, burst b   (b · W < 2^51)
-- State    't', tokens, last (struct '<Bdd', 17 bytes): tokens · W, and the time of
--          the last refill.
-- TTL      when the bucket is full again.
local NAME, TAG = 'token_bucket', 116 -- 't'
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

local full = burst * period
local tokens = full
local v = call('GET', KEYS[1])
if v then
  local tag, had, last
  if #v == 17 then tag, had, last = struct.unpack('<Bdd', v) end
  if tag ~= TAG or not (had % 1 == 0 and last % 1 == 0 and had >= 0 and last >= 0
    and had + last < 9007199254740992) then
--@foreign
  end
  if now < last then now = last end -- a clock that stepped back
  -- Refill N per ms (in 1/W tokens), up to full. The product is only taken below
  -- the point where the bucket is full, so it stays below 2^51.
  local gap = full - had
  if now - last >= (gap + -gap % limit) / limit then
    tokens = full
  else
    tokens = had + (now - last) * limit
  end
end

local need = cost * period
local allowed = tokens >= need
if allowed then tokens = tokens - need end
local rest = full - tokens
rest = (rest + -rest % limit) / limit
if allowed then
  local state = struct.pack('<Bdd', TAG, tokens, now)
--@store
end
-- The next whole token comes when tokens reaches the next multiple of W.
local reset_n = 0
if tokens < full then reset_n = period - tokens % period end
return {allowed and 1 or 0, 0, 1, allowed and 0 or need - tokens, limit, reset_n, limit,
  (tokens - tokens % period) / period, rest, now, 2}
