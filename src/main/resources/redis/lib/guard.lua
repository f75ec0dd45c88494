-- Library (after lib/gcra and lib/claim): an idempotency claim folded around a domain script, so claim, effect
-- and commit are one script and one round trip (SPEC 5). The domain script runs as the function domain(K, A).
-- GK[1] idem key  GK[2] new-key counter  GK[3] GCRA key
-- GA[1] pending record  GA[2] lease ms  GA[3] new-key quota or ''  GA[4] new-key window ms
-- GA[5] request quota or ''  GA[6] its window ms  GA[7] head of the completed record, up to the Location's prefix
-- GA[8] retention ms  GA[9] the domain outcome stored at once: its reply[3] ends the Location (the id of what it
-- created), its reply[2] is the response body
-- GA[10] the domain outcome that changes nothing and is not stored (the key stays free)
-- Returns {state, payload, allowed, remaining, retry after ms, reset ms, domain reply...}. state: 'limited',
-- 'existing' (payload: the record), 'budget' (payload: ms) when the domain did not run; 'stored' (the completed
-- record is written), 'held' (the pending record is written; the caller completes or releases it) or 'released'
-- (nothing written) after it ran.
local function guarded(GK, GA, K, A)
  local kind, payload, allowed, remaining, retry, reset =
    claim_look(GK[1], GK[2], GA[3], GA[4], GK[3], GA[5], GA[6])
  if kind ~= 'fresh' then
    if kind == 'existing' and string.sub(payload, 1, 1) == 'D' then
      -- A replay is vouched for like a first answer: this write follows the stored record (and the order) in the
      -- replication stream, so a WAIT after this script counts replicas that have them too.
      redis.call('PEXPIRE', GK[1], math.max(1, redis.call('PTTL', GK[1])))
    end
    return {kind, payload, allowed, remaining, retry, reset}
  end
  claim_count(GK[2], GA[3], GA[4])
  local reply = domain(K, A)
  local state = 'held'
  if reply[1] == GA[9] then
    redis.call('SET', GK[1], GA[7] .. reply[3] .. '\n' .. reply[2], 'PX', GA[8])
    state = 'stored'
  elseif reply[1] == GA[10] then
    state = 'released'
  else
    redis.call('SET', GK[1], GA[1], 'PX', GA[2])
  end
  local out = {state, '', allowed, remaining, retry, reset}
  for i = 1, #reply do out[6 + i] = reply[i] end
  return out
end

