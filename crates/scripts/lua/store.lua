  -- (store.lua) KEYS[1] := state, with a TTL that ends when the limiter is at rest,
  -- rest ms after now: from then on a missing key decides exactly as the stored
  -- state would. On the server's clock the key expires at that moment. On a virtual
  -- clock (a replay) the TTL still runs in the server's real milliseconds, so
  -- slack_ms is added: a replay that finishes within slack_ms of real time never
  -- loses state it still needs. Times go as text written by %d (Redis would write a
  -- number with %.17g, and that costs more).
  if rest < 1 then
    call('DEL', KEYS[1])
  elseif SERVER then
    call('SET', KEYS[1], state, 'PXAT', string.format('%d', now + rest))
  else
    call('SET', KEYS[1], state, 'PX', string.format('%d', rest + slack))
  end
