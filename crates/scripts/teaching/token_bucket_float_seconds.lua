-- WRONG ON PURPOSE (ratelab teaching variant): the token bucket as it is usually
-- published, with float seconds and float tokens in a hash. Doubles cannot hold
-- 0.1 or 0.3 exactly, so elapsed · rate can fall a hair short of a whole token: at
-- 10 per second with burst 1, a request every 100 ms finds 0.9999999999999998
-- tokens at 0.3 s (0.3 − 0.2 = 0.09999999999999998) and is denied, although exactly
-- one token has come back. Use token_bucket.lua, which counts in whole 1/W tokens.
--
-- KEYS[1]  a hash {tokens, ts}
-- ARGV     now (seconds, e.g. 10.7), rate (tokens per second), capacity, cost
local now = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local capacity = tonumber(ARGV[3])
local cost = tonumber(ARGV[4])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = tonumber(state[1]) or capacity
local ts = tonumber(state[2]) or now
tokens = math.min(capacity, tokens + math.max(0, now - ts) * rate)
local allowed = 0
if tokens >= cost then
  tokens = tokens - cost
  allowed = 1
end
redis.call('HMSET', KEYS[1], 'tokens', tokens, 'ts', now)
redis.call('EXPIRE', KEYS[1], math.ceil(capacity / rate) + 1)
return {allowed, string.format('%.17g', tokens)}
