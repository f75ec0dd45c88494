-- Step 2 of the gate (docs/idempotency.md): counts the request against its rate limit, then claims an idempotency record with
-- a lease or returns the record that is already there; a fresh key counts against the principal's new-key
-- budget, so one principal cannot fill the store with keys (lib/gcra, lib/claim). One script: limit, claim and
-- the read of the winner's record are one round trip, before anything outside Redis runs.
-- KEYS[1] idem:{t}:<sha256 of tenant, principal, method, route template, key>
-- KEYS[2] nk:{t}:<principal digest>  (counter of fresh keys in the window; only when ARGV[3] ~= '')
-- KEYS[3] rl:{t}:writes:<principal digest>  (GCRA state; only when ARGV[5] ~= '')
-- KEYS[4] the claim's fence, idem:{t}:<hash>:gone:<owner>: set by the release of a claim whose caller gave up
--         (see idempotency-release); a claim that finds it runs after its caller gave up and takes nothing
-- ARGV[1] pending record (see IdempotencyRecord)  ARGV[2] lease in milliseconds
-- ARGV[3] new-key quota, '' for none  ARGV[4] new-key window in milliseconds
-- ARGV[5] request quota, '' for none (a poll of a running twin is not counted again)  ARGV[6] its window in ms
-- Returns {kind, payload, allowed, remaining, retry after ms, reset ms}; the last four are the GCRA step's
-- ('' when not counted). kind: 'claimed' (this caller owns the key now), 'existing' (payload: the record),
-- 'budget' (payload: ms until the new-key window ends), 'limited' (nothing claimed) or 'fenced' (nothing counted,
-- nothing claimed: its caller had given up).
-- reply: 1=kind 2=payload 3=allowed 4=remaining 5=retry 6=reset
-- The fence, the rate's state and the key, read in one call (nothing runs between a script's commands); without a rate
-- its slot reads the fence again (KEYS[3] is then the key itself, whose record need not be copied twice).
local held = redis.call('MGET', KEYS[4], ARGV[5] ~= '' and KEYS[3] or KEYS[4], KEYS[1])
if held[1] then return {'fenced', '', '', '', '', ''} end
local kind, payload, allowed, remaining, retry, reset = claim_look(KEYS[3], ARGV[5], ARGV[6], held[2], held[3])
if kind == 'existing' and string.sub(payload, 1, 1) == 'D' then
  -- A replay is vouched for like a first answer: this write follows the stored record (and what it names) in the
  -- replication stream, so a WAIT in the same batch counts replicas that have them too.
  redis.call('PEXPIRE', KEYS[1], string.format('%d', math.max(1, redis.call('PTTL', KEYS[1]))))
end
if kind ~= 'fresh' then return {kind, payload, allowed, remaining, retry, reset} end
local budgetLeft = claim_count(KEYS[2], ARGV[3], ARGV[4])
if budgetLeft then return {'budget', budgetLeft, allowed, remaining, retry, reset} end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return {'claimed', '', allowed, remaining, retry, reset}
