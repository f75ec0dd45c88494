-- Library (after lib/gcra): the look of an idempotency claim (claim_look) and the count of a fresh key against the
-- principal's new-key budget (claim_count), used by the claim script (idempotency-claim), which takes the key only
-- when the count allows it.
-- Counts the request against its rate (GCRA; rlQuota '' for none), then looks at the idempotency key. The caller read
-- both keys' values (tat, existing: false when absent) in one call before. Returns kind, payload and the four GCRA
-- fields ('' when not counted). kind: 'limited' (nothing looked at), 'existing' (payload: the record held) or 'fresh'
-- (the key is free; nothing written yet).
local function claim_look(rlKey, rlQuota, rlWindow, tat, existing)
  local allowed, remaining, retry, reset = '', '', '', ''
  if rlQuota ~= '' then
    allowed, remaining, retry, reset = gcra_read(rlKey, rlQuota, rlWindow, tat)
    if allowed == 0 then return 'limited', '', allowed, remaining, retry, reset end
  end
  if existing then return 'existing', existing, allowed, remaining, retry, reset end
  return 'fresh', '', allowed, remaining, retry, reset
end

-- Counts a fresh key against the new-key budget (nkQuota '' for none): one INCR when the budget allows it, taken back
-- when it does not. Returns nil when counted (or no budget), else the ms until the new-key window ends. The key that
-- opens a window starts its clock; a later one finds it running (a counter without a clock would refuse for ever:
-- it gets the window's at its first refusal).
local function claim_count(nkKey, nkQuota, nkWindow)
  if nkQuota == '' then return nil end
  local opened = redis.call('INCR', nkKey)
  if opened == 1 then redis.call('PEXPIRE', nkKey, nkWindow) end
  if opened <= tonumber(nkQuota) then return nil end
  redis.call('DECR', nkKey)
  local left = redis.call('PTTL', nkKey)
  if left == -1 then redis.call('PEXPIRE', nkKey, nkWindow) end
  if left < 0 then left = tonumber(nkWindow) end
  return tostring(left)
end
