-- Deletes a pending claim so that a retry can execute, but only while the caller still owns it.
-- KEYS[1] idem:{t}:<hash>  ARGV[1] the caller's pending record (it embeds the owner token)
-- Returns 1 when released, 0 when the claim is no longer this owner's.
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1
