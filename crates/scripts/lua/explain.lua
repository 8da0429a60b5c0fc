  -- (explain.lua, only when the arguments' test failed) Which argument is wrong:
  -- each is read again, in order, and the first bad one is reported by name (E).
  local format, floor, E = string.format, math.floor, nil
  local function int(name, s, lo, hi)
    local n = tonumber(s)
    if n and n % 1 == 0 and n >= lo and n <= hi then return n end
    E = E or format('%s: %s is not a whole number from %d to %d', name, tostring(s), lo, hi)
    return lo
  end
  if not SERVER then now = int('now', A[1], 0, BIG - 1) end
  cost = int('cost', A[2], 1, MAX32)
  slack = int('slack_ms', A[3], 0, BIG - 1)
  limit = int('limit', A[4], 1, MAX32)
  period = int('period_ms', A[5], 1, BIG - 1)
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
