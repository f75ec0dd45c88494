-- Stores the final response, but only while the caller still owns the pending claim: the current
-- value must be exactly the caller's pending record (which embeds its owner token). A request that
-- outlived its lease finds another owner's record (or nothing) and changes nothing.
-- KEYS[1] idem:{t}:<hash>  ARGV[1] the caller's pending record  ARGV[2] completed record
-- ARGV[3] retention in ms
-- Returns 1 when stored, 0 when the claim is no longer this owner's.
-- reply: 1=done
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1
