-- (ahead_state.lua, shared by gcra and leaky_queue) The state "ahead:last": a time
-- (GCRA's TAT, the queue's next free slot) kept as how far it runs ahead of the
-- last accepted request, in 1/N ms, and that request's time. lead becomes how far
-- it runs ahead of now: max(time, now) − now, 0 once passed.
local lead = 0
local v = redis.call('GET', KEYS[1])
if v then
  local a, b = string.match(v, '^(%d+):(%d+)$')
  local ahead, last = tonumber(a), tonumber(b)
  if not last then return redis.error_reply('ERR ratelab ' .. NAME .. ': the key holds ' .. v .. ", not this limiter's state") end
  if now < last then now = last end -- a clock that stepped back
  if now - last < ceildiv(ahead, limit) then lead = ahead - (now - last) * limit end
end
