-- Stores the final response, but only while the caller still owns the pending claim. A request that
-- outlived its lease finds another owner (or nothing) and changes nothing.
-- KEYS[1] idem:{t}:<hash>  ARGV[1] owner token  ARGV[2] completed record JSON  ARGV[3] retention in ms
-- Returns 1 when stored, 0 when the claim is no longer this owner's.
local current = redis.call('GET', KEYS[1])
if not current then return 0 end
local record = cjson.decode(current)
if record.state ~= 'pending' or record.owner ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1
