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
-- State    "tokens:last": tokens · W, and the time of the last refill.
-- TTL      when the bucket is full again.
local NAME = 'token_bucket'
--@prelude
local burst = int('burst', ARGV[6], 1, 4294967295)
product('burst', burst)
fits(burst)
if E then return redis.error_reply('ERR ratelab ' .. NAME .. ': ' .. E) end

local full = burst * period
local tokens = full
local v = redis.call('GET', KEYS[1])
if v then
  local a, b = string.match(v, '^(%d+):(%d+)$')
  local had, last = tonumber(a), tonumber(b)
  if not last then return redis.error_reply('ERR ratelab ' .. NAME .. ': the key holds ' .. v .. ", not this limiter's state") end
  if now < last then now = last end -- a clock that stepped back
  -- Refill N per ms (in 1/W tokens), up to full. The product is only taken below
  -- the point where the bucket is full, so it stays below 2^51.
  if now - last >= ceildiv(full - had, limit) then
    tokens = full
  else
    tokens = had + (now - last) * limit
  end
end

local need = cost * period
local allowed = tokens >= need
if allowed then tokens = tokens - need end
local rest = ceildiv(full - tokens, limit)
if allowed then store(KEYS[1], format('%d:%d', tokens, now), rest) end
-- The next whole token comes when tokens reaches the next multiple of W.
local reset_n = 0
if tokens < full then reset_n = period - tokens % period end
return {allowed and 1 or 0, 0, 1, allowed and 0 or need - tokens, limit, reset_n, limit,
  floor(tokens / period), rest, now, 2}
