-- (ahead_state.lua, shared by gcra and leaky_queue) The state (TAG, ahead, last): a
-- time (GCRA's TAT, the queue's next free slot) kept as how far it runs ahead of
-- the last accepted request, in 1/N ms, and that request's time. lead becomes how
-- far it runs ahead of now: max(time, now) − now, 0 once passed.
local lead = 0
local v = call('GET', KEYS[1])
if v then
  local tag, ahead, last
  if #v == 17 then tag, ahead, last = struct.unpack('<Bdd', v) end
  if tag ~= TAG or not (ahead % 1 == 0 and last % 1 == 0 and ahead >= 0 and last >= 0
    and ahead + last < 9007199254740992) then
    -- As foreign.lua (a part cannot splice another).
    if #v > 64 or string.find(v, '[^%w%p ]') then v = #v .. ' bytes' end
    return redis.error_reply('ERR ratelab ' .. NAME .. ': the key holds ' .. v .. ", not this limiter's state")
  end
  if now < last then now = last end -- a clock that stepped back
  if now - last < (ahead + -ahead % limit) / limit then lead = ahead - (now - last) * limit end
end
