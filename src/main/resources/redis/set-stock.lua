-- Sets quantity, price and currency of one SKU, conditionally: an existing record is replaced only when the
-- caller names its current version (If-Match), so a retried or stale write can never put back stock that was
-- sold in between. Every write bumps the version.
-- KEYS[1] inv:{t}:<sku>  (hash: available, unitPrice, currency, version)
-- ARGV[1] expected version, '*' for any existing record, '' when the caller named none
-- ARGV[2] available  ARGV[3] unitPrice  ARGV[4] currency
-- Returns {'ok', version} | {'precondition-required'} | {'precondition-failed'}
local current = redis.call('HGET', KEYS[1], 'version')
local exists = redis.call('EXISTS', KEYS[1]) == 1
if exists then
  if ARGV[1] == '' then return {'precondition-required'} end
  if ARGV[1] ~= '*' and ARGV[1] ~= (current or '0') then return {'precondition-failed'} end
elseif ARGV[1] ~= '' and ARGV[1] ~= '*' then
  return {'precondition-failed'}
end
local version = redis.call('HINCRBY', KEYS[1], 'version', 1)
redis.call('HSET', KEYS[1], 'available', ARGV[2], 'unitPrice', ARGV[3], 'currency', ARGV[4])
return {'ok', tostring(version)}
