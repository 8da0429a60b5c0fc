-- Redis runs Lua 5.1, whose numbers are doubles: integers are exact below 2^53.
-- Every number here stays below that: times and periods below 2^52 ms, every
-- count · period product below 2^51, so that a sum of three still fits. Numbers
-- become text through string.format('%d') (or go to redis.call as numbers, which
-- Redis writes with 17 digits), never through tostring or .., which keep 14.
local BIG = 4503599627370496 -- 2^52
local floor, format = math.floor, string.format
-- ceil(a / b) for whole 0 <= a < 2^53 and b >= 1. floor(a / b) is exact there: the
-- rounding error of a / b is below 1 / b, the least distance from a / b to a whole
-- number it is not.
local function ceildiv(a, b) return -floor(-a / b) end

-- Arguments are checked; the first bad one is reported by name (E), after all of
-- them are read.
local E
local function int(name, s, lo, hi)
  local n = tonumber(s)
  if n and n % 1 == 0 and n >= lo and n <= hi then return n end
  E = E or format('%s: %s is not a whole number from %d to %d', name, tostring(s), lo, hi)
  return lo
end

-- ARGV[1] is the time in ms, or TIME for the server's own clock (one clock for every
-- instance: how a deployment runs it). ARGV[2] is the request's cost. ARGV[3] is
-- added to TTLs on a virtual clock (see store).
local SERVER = ARGV[1] == 'TIME'
local now
if SERVER then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + floor(tonumber(t[2]) / 1000)
else
  now = int('now', ARGV[1], 0, BIG - 1)
end
local cost = int('cost', ARGV[2], 1, 4294967295)
local slack = int('slack_ms', ARGV[3], 0, BIG - 1)
-- Every limiter's rate: limit requests per period_ms.
local limit = int('limit', ARGV[4], 1, 4294967295)
local period = int('period_ms', ARGV[5], 1, BIG - 1)
-- A cost beyond what the limiter can ever allow at once is refused, not denied.
local function fits(capacity)
  if not E and cost > capacity then
    E = format('cost: %d exceeds what this limiter can ever allow at once (%d), so it could never pass', cost, capacity)
  end
end
-- count · period_ms must stay below 2^51.
local function product(name, count)
  if not E and count * period > 2251799813685247 then
    E = format('%s: %d is too large for this period_ms (at most %d, so that %s · period_ms stays below 2^51)',
      name, count, floor(2251799813685247 / period), name)
  end
end

-- Every key carries a TTL that ends when the limiter is at rest, rest_ms after now:
-- from then on a missing key decides exactly as the stored state would. On the
-- server's clock the key expires at that moment. On a virtual clock (a replay) the
-- TTL still runs in the server's real milliseconds, so slack_ms is added: a replay
-- that finishes within slack_ms of real time never loses state it still needs.
local function store(key, value, rest_ms)
  if rest_ms < 1 then
    redis.call('DEL', key)
  elseif SERVER then
    redis.call('SET', key, value, 'PXAT', now + rest_ms)
  else
    redis.call('SET', key, value, 'PX', rest_ms + slack)
  end
end

-- The reply is eleven integers: allowed (1 or 0); the wait, the retry-after and the
-- reset, each a fraction of a ms (numerator, denominator); the requests that would
-- still pass now; ms until the limiter is at rest; the time decided at; how many
-- numbers of state it keeps. Errors are replies too: 'ERR ratelab <name>: ...'.
