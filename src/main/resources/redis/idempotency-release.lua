-- Deletes a pending claim so that a retry can execute, but only while the caller still owns it.
-- KEYS[1] idem:{t}:<hash>  KEYS[2] the claim's fence, idem:{t}:<hash>:gone:<owner> (only when ARGV[2] ~= '')
-- ARGV[1] the caller's pending record (it embeds the owner token)
-- ARGV[2] '' or, for a claim whose caller gave up before it learnt the claim's outcome, how long (ms) the fence
--         is kept: a claim of that owner that reaches Redis later (it waited in a stalled server's socket) finds
--         the fence and takes nothing, whichever of the two ran first.
-- Returns 1 when released, 0 when the claim is not (or no longer, or not yet) this owner's.
-- reply: 1=done
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  if ARGV[2] ~= '' then redis.call('SET', KEYS[2], '1', 'PX', ARGV[2]) end
  return 0
end
redis.call('DEL', KEYS[1])
return 1
