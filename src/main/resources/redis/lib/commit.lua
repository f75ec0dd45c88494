-- Library: step 4 of the gate (docs/idempotency.md), the effect and the commit of its answer in one script. The claim is checked
-- first: only while the caller still owns its pending claim does the domain script run (as the function
-- domain(K, A)), so an attempt that outlived its lease applies nothing, whatever the domain script would have done.
-- When the domain's outcome is one of the two named answers, the completed record is written in the same script,
-- so effect and answer reach a replica (and a WAIT in the same batch) together. The claim was taken, and the limits
-- counted, by an earlier step.
-- CK[1] idem key
-- CA[1] the caller's pending record  CA[2] retention ms
-- CA[3] outcome answered as created, CA[4] the head of its completed record
-- CA[5] outcome answered as found,   CA[6] the head of its completed record
-- CA[7] the index of the domain reply's element that completes both heads (their Location's prefix and the id, or
--       'etag:' and the version), '0' for none
-- An answered outcome's reply is {outcome, response body, id, ...}.
-- Returns {'lost'} when the claim is not the caller's any more (nothing applied, nothing written), else
-- {state, domain reply...}. state: 'stored' (the completed record is written) or 'open' (another outcome: the claim
-- stays pending for the caller).
local function committed(CK, CA, K, A)
  if redis.call('GET', CK[1]) ~= CA[1] then return {'lost'} end
  local reply = domain(K, A)
  local head = nil
  if reply[1] == CA[3] then head = CA[4] elseif reply[1] == CA[5] then head = CA[6] end
  local state = 'open'
  if head and reply[2] then
    local location = ''
    local completes = tonumber(CA[7])
    if completes > 0 then location = tostring(reply[completes]) end
    redis.call('SET', CK[1], head .. location .. '\n' .. reply[2], 'PX', CA[2])
    state = 'stored'
  end
  table.insert(reply, 1, state)
  return reply
end
