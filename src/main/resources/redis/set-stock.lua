-- Sets quantity, price and currency of one SKU, conditionally (RFC 9110 section 13.1): an existing record is
-- replaced only when the caller states If-Match with its current version (or *), so a retried or stale write can
-- never put back stock that was sold in between; If-Match on a missing record fails; If-None-Match: * creates only.
-- Every write bumps the version.
-- KEYS[1] inv:{t}:<sku>  (hash: available, unitPrice, currency, version)
-- ARGV[1] If-Match: '' absent, '*' any existing record, else ',<v>,<v>,' the accepted versions (',' for none)
-- ARGV[2] available  ARGV[3] unitPrice  ARGV[4] currency
-- ARGV[5] If-None-Match: '' absent, '*' no record may exist, else ',<v>,' the refused versions
-- Returns {'ok', version} | {'precondition-required'} | {'precondition-failed'}
local exists = redis.call('EXISTS', KEYS[1]) == 1
local current = ',' .. (redis.call('HGET', KEYS[1], 'version') or '0') .. ','
if ARGV[1] == '' then
  if exists and ARGV[5] ~= '*' then return {'precondition-required'} end
elseif not exists then
  return {'precondition-failed'}
elseif ARGV[1] ~= '*' and not string.find(ARGV[1], current, 1, true) then
  return {'precondition-failed'}
end
if ARGV[5] == '*' then
  if exists then return {'precondition-failed'} end
elseif ARGV[5] ~= '' and exists and string.find(ARGV[5], current, 1, true) then
  return {'precondition-failed'}
end
local version = redis.call('HINCRBY', KEYS[1], 'version', 1)
redis.call('HSET', KEYS[1], 'available', ARGV[2], 'unitPrice', ARGV[3], 'currency', ARGV[4])
return {'ok', tostring(version)}
