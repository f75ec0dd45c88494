-- Library: step 4 of the gate (docs/idempotency.md), the effect and the commit of its answer in one script. The claim is checked
-- first: only while the caller still owns its pending claim does the effect script run (as the function
-- effect(K, A), see lib/committing), so an attempt that outlived its lease applies nothing, whatever the effect
-- would have done. When the effect's outcome is one of the two named answers, the completed record is written in the
-- same script, so effect and answer reach a replica (and a WAIT in the same batch) together. The claim was taken, and
-- the limits counted, by an earlier step.
-- CK[1] idem key
-- CA[1] the caller's pending record  CA[2] retention ms
-- CA[3] outcome answered as created, CA[4] the head of its completed record
-- CA[5] outcome answered as found,   CA[6] the head of its completed record
-- CA[7], CA[8] where the effect's reply has its outcome and its response body (its own reply layout)
-- CA[9] where the effect's reply has the element that completes both heads (their Location's prefix and the id,
--       or 'etag:' and the version), '0' for none
-- Returns {'lost'} when the claim is not the caller's any more (nothing applied, nothing written), else
-- {state, effect reply...}. state: 'stored' (the completed record is written) or 'open' (another outcome: the claim
-- stays pending for the caller).
-- keys: 1=idem
-- args: 1=pending 2=retention 3=created-outcome 4=created-head 5=found-outcome 6=found-head 7=outcome-at 8=body-at 9=completed-by
-- reply: 1=state 2=effect...
local function committed(effect, CK, CA, K, A)
  if redis.call('GET', CK[1]) ~= CA[1] then return {'lost'} end
  local reply = effect(K, A)
  local outcome, body = reply[tonumber(CA[7])], reply[tonumber(CA[8])]
  local head = nil
  if outcome == CA[3] then head = CA[4] elseif outcome == CA[5] then head = CA[6] end
  local state = 'open'
  if head and body then
    local location = ''
    local completes = tonumber(CA[9])
    if completes > 0 then location = tostring(reply[completes]) end
    redis.call('SET', CK[1], head .. location .. '\n' .. body, 'PX', CA[2])
    state = 'stored'
  end
  table.insert(reply, 1, state)
  return reply
end
