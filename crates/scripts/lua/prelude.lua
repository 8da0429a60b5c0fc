-- Redis runs Lua 5.1, whose numbers are doubles: integers are exact below 2^53.
-- Every number here stays below that: times and periods below 2^52 ms, every
-- count · period product below 2^51, so that a sum of three still fits. Numbers
-- become text only through string.format('%d'), never through tostring or .., which
-- keep 14 digits. floor(a / b) is (a - a % b) / b and ceil(a / b) (a + -a % b) / b:
-- exact for whole a and b >= 1 with |a| + b <= 2^53, and cheaper than a call. Every
-- call runs this whole text, so library functions are looked up only where used.
local A, BIG, MAX32, call = ARGV, 4503599627370496, 4294967295, redis.call -- 2^52, 2^32 − 1

-- ARGV[1] is the time in ms, or TIME for the server's own clock (one clock for every
-- instance: how a deployment runs it). ARGV[2] is the request's cost. ARGV[3] is
-- added to TTLs on a virtual clock (see --@store). ARGV[4] and [5] are every
-- limiter's rate: limit requests per period_ms. Each must be a whole number in its
-- range (`ok`): cost 1 and slack 0 are known by their text, ARGV[4] on are read by
-- the script's `nums` under one pcall (a strtod each; tonumber takes two). When a
-- check fails, the script's --@explain part names the first wrong argument.
local SERVER, now, cost, slack = A[1] == 'TIME', 0, 1, 0
local ok, limit, period, burst, delay = pcall(nums, A)
ok = ok and limit % 1 == 0 and limit >= 1 and limit <= MAX32
  and period % 1 == 0 and period >= 1 and period < BIG
if SERVER then
  local t = call('TIME') -- seconds and microseconds, both in digits
  local us = t[2] + 0
  now = t[1] * 1000 + (us - us % 1000) / 1000
else
  now = tonumber(A[1])
  ok = ok and now and now % 1 == 0 and now >= 0 and now < BIG
end
if A[2] ~= '1' then
  cost = tonumber(A[2])
  ok = ok and cost and cost % 1 == 0 and cost >= 1 and cost <= MAX32
end
if A[3] ~= '0' then
  slack = tonumber(A[3])
  ok = ok and slack and slack % 1 == 0 and slack >= 0 and slack < BIG
end

-- The state is one string of fixed length: the limiter's tag (a letter), then whole
-- numbers as little-endian doubles (struct's '<B', a 'd' each): no text to parse. A
-- key holding anything else (another limiter's state, a value written by hand) is
-- refused by name (--@foreign), never misread.

-- The reply is eleven integers: allowed (1 or 0); the wait, the retry-after and the
-- reset, each a fraction of a ms (numerator, denominator); the requests that would
-- still pass now; ms until the limiter is at rest; the time decided at; how many
-- numbers of state it keeps. Errors are replies too: 'ERR ratelab <name>: ...'.
