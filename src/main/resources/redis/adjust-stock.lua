-- Changes the available quantity of one SKU by a delta, never below zero, and bumps its version.
-- KEYS[1] inv:{t}:<sku>  ARGV[1] delta (may be negative)  ARGV[2] the SKU
-- Returns {'ok', stockJson, available, unitPrice, currency, version} | {'missing'} | {'insufficient', available}
-- stockJson is the answer in the API's layout (the fields and order of StockResponse), so a commit folded around
-- this script (lib/commit.lua) stores the same bytes the first answer carries.
if redis.call('EXISTS', KEYS[1]) == 0 then return {'missing'} end
local available = tonumber(redis.call('HGET', KEYS[1], 'available')) or 0
local delta = tonumber(ARGV[1])
if available + delta < 0 then return {'insufficient', tostring(available)} end
local after = redis.call('HINCRBY', KEYS[1], 'available', delta)
local version = redis.call('HINCRBY', KEYS[1], 'version', 1)
local fields = redis.call('HMGET', KEYS[1], 'unitPrice', 'currency')
local body = '{"sku":' .. cjson.encode(ARGV[2]) .. ',"available":' .. string.format('%d', after)
  .. ',"unitPrice":' .. string.format('%d', tonumber(fields[1])) .. ',"currency":' .. cjson.encode(fields[2]) .. '}'
return {'ok', body, tostring(after), fields[1], fields[2], tostring(version)}
