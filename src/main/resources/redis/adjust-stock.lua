-- Changes the available quantity of one SKU by a delta, never below zero, and bumps its version.
-- KEYS[1] inv:{t}:<sku>  ARGV[1] delta (may be negative)
-- Returns {'ok', available, unitPrice, currency, version} | {'missing'} | {'insufficient', available}
if redis.call('EXISTS', KEYS[1]) == 0 then return {'missing'} end
local available = tonumber(redis.call('HGET', KEYS[1], 'available')) or 0
local delta = tonumber(ARGV[1])
if available + delta < 0 then return {'insufficient', tostring(available)} end
local after = redis.call('HINCRBY', KEYS[1], 'available', delta)
local version = redis.call('HINCRBY', KEYS[1], 'version', 1)
local fields = redis.call('HMGET', KEYS[1], 'unitPrice', 'currency')
return {'ok', tostring(after), fields[1], fields[2], tostring(version)}
