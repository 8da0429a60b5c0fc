    -- (foreign.lua) The key holds something else: refused, naming what it holds when
    -- that is short printable text.
    if #v > 64 or string.find(v, '[^%w%p ]') then v = #v .. ' bytes' end
    return redis.error_reply('ERR ratelab ' .. NAME .. ': the key holds ' .. v .. ", not this limiter's state")
