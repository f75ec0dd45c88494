-- Library (after lib/gcra): the look of an idempotency claim (claim_look) and the count of a fresh key
-- (claim_count), used by the claim script (idempotency-claim), which takes the key between the two.
-- Counts the request against its rate (GCRA; rlQuota '' for none), then looks at the idempotency key, then at
-- the principal's new-key budget (nkQuota '' for none). Returns kind, payload and the four GCRA fields ('' when
-- not counted). kind: 'limited' (nothing looked at), 'existing' (payload: the record held), 'budget' (payload:
-- ms until the new-key window ends) or 'fresh' (the key is free and the budget allows it; nothing written yet).
local function claim_look(idemKey, nkKey, nkQuota, nkWindow, rlKey, rlQuota, rlWindow)
  local allowed, remaining, retry, reset = '', '', '', ''
  if rlQuota ~= '' then
    allowed, remaining, retry, reset = gcra(rlKey, rlQuota, rlWindow)
    if allowed == 0 then return 'limited', '', allowed, remaining, retry, reset end
  end
  local existing = redis.call('GET', idemKey)
  if existing then return 'existing', existing, allowed, remaining, retry, reset end
  if nkQuota ~= '' then
    local opened = tonumber(redis.call('GET', nkKey)) or 0
    if opened >= tonumber(nkQuota) then
      local left = redis.call('PTTL', nkKey)
      -- A counter without a clock would refuse for ever: it gets the window's here, at its first refusal.
      if left == -1 then redis.call('PEXPIRE', nkKey, nkWindow) end
      if left < 0 then left = tonumber(nkWindow) end
      return 'budget', tostring(left), allowed, remaining, retry, reset
    end
  end
  return 'fresh', '', allowed, remaining, retry, reset
end

-- Counts a fresh key against the new-key budget (nkQuota '' for none). The key that opens a window starts its
-- clock; a later one finds it running (one that lost it gets it back at its first refusal, above).
local function claim_count(nkKey, nkQuota, nkWindow)
  if nkQuota == '' then return end
  if redis.call('INCR', nkKey) == 1 then redis.call('PEXPIRE', nkKey, nkWindow) end
end

