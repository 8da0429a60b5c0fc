-- Redis runs Lua 5.1, whose numbers are doubles: integers are exact below 2^53.
-- Every number here stays below that: times and periods below 2^52 ms, every
-- count · period product below 2^51, so that a sum of three still fits. Numbers
-- become text only through string.format('%d'), never through tostring or .., which
-- keep 14 digits.
local BIG, MAX32 = 4503599627370496, 4294967295 -- 2^52, 2^32 − 1
local floor, ceil, format, tonumber, A = math.floor, math.ceil, string.format, tonumber, ARGV
local pack, unpack = struct.pack, struct.unpack
-- floor(a / b) and ceil(a / b) are exact for whole 0 <= a < 2^53 and b >= 1: the
-- rounding error of a / b is below 1 / b, the least distance from a / b to a whole
-- number it is not. Every call runs this whole text, so it defines no function (a
-- closure is built on every call): the shared steps are parts spliced in.

-- ARGV[1] is the time in ms, or TIME for the server's own clock (one clock for every
-- instance: how a deployment runs it). ARGV[2] is the request's cost. ARGV[3] is
-- added to TTLs on a virtual clock (see --@store). ARGV[4] and [5] are every
-- limiter's rate: limit requests per period_ms.
-- Every argument is checked on every call, in tests that call nothing and make no
-- string: a whole number in its range (`ok`). The usual cost 1 and slack 0 are
-- recognised by their text alone. Each script adds its own arguments and products
-- to `ok`; when that fails, its --@explain part finds the wrong one and names it.
local SERVER, ok = A[1] == 'TIME', true
local now, cost, slack = 0, 1, 0
if SERVER then
  local t = redis.call('TIME') -- seconds and microseconds, both in digits
  now = t[1] * 1000 + floor(t[2] / 1000)
else
  now = tonumber(A[1])
  ok = now and now % 1 == 0 and now >= 0 and now < BIG
end
if A[2] ~= '1' then
  cost = tonumber(A[2])
  ok = ok and cost and cost % 1 == 0 and cost >= 1 and cost <= MAX32
end
if A[3] ~= '0' then
  slack = tonumber(A[3])
  ok = ok and slack and slack % 1 == 0 and slack >= 0 and slack < BIG
end
local limit, period = tonumber(A[4]), tonumber(A[5])
ok = ok and limit and period and limit % 1 == 0 and limit >= 1 and limit <= MAX32
  and period % 1 == 0 and period >= 1 and period < BIG

-- The state is one string of fixed length: the limiter's tag (a letter), then whole
-- numbers as little-endian doubles (struct's '<B' then one 'd' each), read and
-- written without parsing or formatting text. A key holding anything else (another
-- limiter's state, a value written by hand) is refused by name (--@foreign), never
-- misread.

-- The reply is eleven integers: allowed (1 or 0); the wait, the retry-after and the
-- reset, each a fraction of a ms (numerator, denominator); the requests that would
-- still pass now; ms until the limiter is at rest; the time decided at; how many
-- numbers of state it keeps. Errors are replies too: 'ERR ratelab <name>: ...'.
