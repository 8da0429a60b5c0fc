-- ratelab sliding_log: the time of every allowed request in the last W; allow if
-- fewer than N are inside (t − W, t]. Exactly N in any window W, never more. Only
-- allowed requests are logged (logging denials too blocks a persistent client
-- forever: see the teaching variant).
--
-- KEYS[1]  the log: a sorted set, score = time, member "t:n" (n requests at t; a
--          request of cost c counts c times, and equal times share one member)
-- KEYS[2]  'l', requests, members, oldest, newest, n (struct '<Bddddd', 41 bytes):
--          how many requests the log holds (the sum of its n) and how many
--          members, the oldest and the newest member's times and the newest's n:
--          what a call needs of the log, in one GET instead of reading the log
-- ARGV     now|TIME, cost, slack_ms, limit N, period_ms W
-- TTL      both keys: when the newest entry leaves the window.
-- Memory   up to N members (the memory lab in the README measures it).
local NAME, TAG = 'sliding_log', 108 -- 'l'
local function nums(A) return A[4] + 0, A[5] + 0 end
--@prelude
if not (ok and cost <= limit) then
--@explain
  fits(limit)
  return redis.error_reply('ERR ratelab ' .. NAME .. ': ' .. E)
end

local log, held, format = KEYS[1], KEYS[2], string.format
local function count_of(member) return tonumber(string.match(member, ':(%d+)$')) or 0 end

local live, members, oldest_t, newest_t, newest_n, changed = 0, 0, nil, nil, 0, false
local v = call('GET', held)
if v then
  local tag, sl, sm, so, sn, sc
  if #v == 41 then tag, sl, sm, so, sn, sc = struct.unpack('<Bddddd', v) end
  if tag ~= TAG or not (sl % 1 == 0 and sm % 1 == 0 and so % 1 == 0 and sn % 1 == 0
    and sc % 1 == 0 and sl >= 1 and sm >= 1 and sc >= 1 and sc <= sl and so >= 0
    and so <= sn and sn < BIG and sl + sm < 9007199254740992) then
--@foreign
  end
  live, members, oldest_t, newest_t, newest_n = sl, sm, so, sn, sc
elseif call('EXISTS', log) == 1 then
  v = 'nothing'
--@foreign
end
if newest_t and now < newest_t then now = newest_t end -- a clock that stepped back
local cutoff = now - period -- entries at or before it have left (now − W, now]
if newest_t and newest_t <= cutoff then
  call('DEL', log, held) -- everything has expired
  live, members, oldest_t, newest_t, newest_n = 0, 0, nil, nil, 0
elseif oldest_t and oldest_t <= cutoff then
  local gone = call('ZRANGEBYSCORE', log, '-inf', cutoff)
  for i = 1, #gone do live = live - count_of(gone[i]) end
  members = members - #gone
  call('ZREMRANGEBYSCORE', log, '-inf', cutoff)
  oldest_t = tonumber(call('ZRANGE', log, 0, 0, 'WITHSCORES')[2])
  changed = true
end

local allowed = live + cost <= limit
if allowed then
  if newest_t == now then
    call('ZREM', log, format('%d:%d', now, newest_n))
    newest_n = newest_n + cost
  else
    newest_n = cost
    members = members + 1
  end
  call('ZADD', log, now, format('%d:%d', now, newest_n))
  live = live + cost
  newest_t = now
  oldest_t = oldest_t or now
  changed = true
end

local retry, reset, rest = 0, 0, 0
if not allowed then
  -- live + cost − N requests must leave first; the last of them decides.
  local j = live + cost - limit - 1
  local seen = 0
  local entries = call('ZRANGE', log, 0, j, 'WITHSCORES')
  for i = 1, #entries, 2 do
    seen = seen + count_of(entries[i])
    if j < seen then
      retry = tonumber(entries[i + 1]) + period - now
      break
    end
  end
end
if live > 0 then
  reset = oldest_t + period - now
  rest = newest_t + period - now
end
if changed then
  if live > 0 then
    -- As store.lua, for both keys (rest > 0 here).
    local state = struct.pack('<Bddddd', TAG, live, members, oldest_t, newest_t, newest_n)
    if SERVER then
      local at = format('%d', now + rest)
      call('SET', held, state, 'PXAT', at)
      call('PEXPIREAT', log, at)
    else
      local ms = format('%d', rest + slack)
      call('SET', held, state, 'PX', ms)
      call('PEXPIRE', log, ms)
    end
  else
    call('DEL', log, held)
  end
end
local remaining = limit - live
if remaining < 0 then remaining = 0 end
return {allowed and 1 or 0, 0, 1, retry, 1, reset, 1, remaining, rest, now, members}
