-- WRONG ON PURPOSE (ratelab teaching variant): the sliding log that adds the request
-- before counting, so denied requests are logged too. A client that keeps sending
-- at or above the limit keeps its own log full and is blocked forever: at 2 per
-- second, a request every 400 ms passes twice and then never again, where
-- sliding_log.lua passes two of every three.
--
-- KEYS[1]  a sorted set, score = time, one member per request
-- ARGV     now (ms), a unique request id, limit N, window_ms W
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[4]))
redis.call('ZADD', KEYS[1], now, ARGV[2])
local count = redis.call('ZCARD', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
if count <= tonumber(ARGV[3]) then return 1 end
return 0
