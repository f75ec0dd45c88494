-- Changes the available quantity of one SKU by a delta, never below zero, and bumps its version. Under an
-- idempotency key the adjustment has a natural key of its own, written in the same script as the change: the same
-- key and request finds the first answer again instead of applying the delta twice; the same key with another
-- request changes nothing and says so. The answer is kept as long as the stored response; a compact mark (a prefix
-- of the request digest) is kept for the adjustment horizon (at least a day), so a retry that comes after the
-- answer is gone is still never applied twice: it changes nothing and says the key was applied.
-- KEYS[1] inv:{t}:<sku>
-- KEYS[2] adjkey:{t}:<scoped key hash>  (string "<request digest>\n<available>\n<unitPrice>\n<currency>\n<version>\n
--         <stockJson>"; only when ARGV[3] ~= '')
-- KEYS[3] adjdone:{t}:<scoped key hash> (string: the first 32 characters of the request digest; only when
--         ARGV[3] ~= '')
-- ARGV[1] delta (may be negative)  ARGV[2] the SKU  ARGV[3] request digest, '' without a natural key
-- ARGV[4] how long the answer is kept, in ms  ARGV[5] how long the mark is kept (the horizon), in ms
-- Returns {'ok', stockJson, available, unitPrice, currency, version} (also when the natural key names the answer)
--       | {'missing'} | {'insufficient', available} | {'reused'} | {'applied'} (the mark without the answer)
-- stockJson is the answer in the API's layout (the fields and order of StockResponse), so a commit folded around
-- this script (lib/commit.lua) stores the same bytes the first answer carries.
-- reply: 1=outcome 2=body 3=available 4=unit-price 5=currency 6=version
local mark = string.sub(ARGV[3], 1, 32)
if ARGV[3] ~= '' then
  local held = redis.call('GET', KEYS[2])
  if held then
    local digest, after, price, currency, version, body =
      string.match(held, '^([^\n]*)\n([^\n]*)\n([^\n]*)\n([^\n]*)\n([^\n]*)\n(.*)$')
    if digest ~= ARGV[3] then return {'reused'} end
    return {'ok', body, after, price, currency, version}
  end
  local applied = redis.call('GET', KEYS[3])
  if applied then
    if applied ~= mark then return {'reused'} end
    return {'applied'}
  end
end
if redis.call('EXISTS', KEYS[1]) == 0 then return {'missing'} end
local available = tonumber(redis.call('HGET', KEYS[1], 'available')) or 0
local delta = tonumber(ARGV[1])
if available + delta < 0 then return {'insufficient', tostring(available)} end
local after = tostring(redis.call('HINCRBY', KEYS[1], 'available', ARGV[1]))
local version = tostring(redis.call('HINCRBY', KEYS[1], 'version', 1))
local fields = redis.call('HMGET', KEYS[1], 'unitPrice', 'currency')
local body = '{"sku":' .. cjson.encode(ARGV[2]) .. ',"available":' .. after
  .. ',"unitPrice":' .. string.format('%d', tonumber(fields[1])) .. ',"currency":' .. cjson.encode(fields[2]) .. '}'
if ARGV[3] ~= '' then
  redis.call('SET', KEYS[2], table.concat({ARGV[3], after, fields[1], fields[2], version, body}, '\n'),
    'PX', ARGV[4])
  redis.call('SET', KEYS[3], mark, 'PX', ARGV[5])
end
return {'ok', body, after, fields[1], fields[2], version}
