-- Places one order atomically: natural-key lookup, stock check of every line, stock decrement,
-- order record, tenant and customer index entries and the ledger CHARGE, all or nothing.
-- Every key shares the tenant hash tag {t:<tenant>}, so the script runs on one cluster slot.
--
-- KEYS[1] order record        order:{t}:<orderId>            (string, JSON)
-- KEYS[2] ledger of the order  ledger:{t}:<orderId>           (list of JSON entries)
-- KEYS[3] tenant index         orders:{t}:all                 (zset, score = sequence)
-- KEYS[4] customer index       orders:{t}:customer:<id>       (zset, score = sequence)
-- KEYS[5] tenant sequence      seq:{t}:orders                 (counter)
-- KEYS[6] operation natural key  opkey:{t}:<sha256>           (string "<orderId>\n<request digest>"; only when ARGV[4] ~= '')
-- KEYS[7] client reference key   cref:{t}:<clientReference>   (string "<orderId>\n<content digest>"; only when ARGV[3] ~= '')
-- KEYS[8] spend this window     spend:{t}:<currency>:<principal digest> (counter; only when ARGV[6] ~= '')
-- KEYS[9..] inventory          inv:{t}:<sku>                  (hash: available, unitPrice, currency, version), one per line
-- ARGV[1] orderId  ARGV[2] currency  ARGV[3] clientReference or ''
-- ARGV[4] request digest of the operation key, '' when none  ARGV[5] content digest of the order (customer, lines,
--         currency; read only with a client reference)
-- ARGV[6] spend cap in minor units, '' for none  ARGV[7] spend window in ms
-- ARGV[8] order retention in ms, 0 to keep orders for ever
-- The records are written from parts the caller encoded (no JSON encoding here; only the prices come from Redis):
-- ARGV[9] the order record up to its first line: {"id":..,"status":"CONFIRMED","customerId":..,"items":[
-- ARGV[10] the order record after its total: ,"currency":..,"paymentId":..,"clientReference":..,"createdAt":..}
-- ARGV[11] the ledger's CHARGE entry up to its amount: {"id":..,"orderId":..,"type":"CHARGE",..,"amount":
-- ARGV[12..] two per inventory key, in the same order: the quantity, then the line up to its unit price:
--         {"sku":..,"quantity":..,"unitPrice":
-- Retention: the natural keys expire after the retention, the order, its ledger and the indexes a minute later
-- (so a natural key never names a deleted order). Each placement drops the oldest entries of both indexes whose
-- orders are gone; those order keys are read by name, in the tenant's slot like every other key.
-- A natural key is bound to what first used it: the same key with another digest changes nothing and says so.
-- Returns {'created', orderJson, orderId} | {'existing', orderJson (false when gone), orderId} | {'insufficient', sku, requested, available}
--       | {'currency', sku, currency} | {'operation-reused'} | {'reference-conflict'}
--       | {'spend-cap', ms until the spend window ends} | {'spend-cap-never', the order's total}
-- The answered outcomes ('created', 'existing') are laid out as below; a refusal lays out its facts after its outcome.
-- reply: 1=outcome 2=body 3=id

-- Every number handed to a command is formatted here as an integer, whatever the server would make of a Lua number:
-- Redis 7.0 prints it with the C library's floating-point printer (%.17g; about 6 % of this script's time in its
-- profile), 7.2 before 7.2.5 may print a whole number in exponent form, which an integer argument refuses. ARGV
-- strings go as they came.
local function int(value) return string.format('%d', value) end

-- A natural key's value is "<orderId>\n<digest>"; returns the order id and whether the digest matches.
local function bound(key, digest)
  local value = redis.call('GET', key)
  if not value then return nil end
  local orderId, stored = string.match(value, '^([^\n]*)\n(.*)$')
  if not orderId then return value, true end
  return orderId, stored == digest
end

-- The order a natural key names, as its record (the response body of the request that placed it).
local orderPrefix = string.sub(KEYS[1], 1, #KEYS[1] - #ARGV[1])
local function found(orderId)
  return {'existing', redis.call('GET', orderPrefix .. orderId), orderId}
end

if ARGV[4] ~= '' then
  local orderId, same = bound(KEYS[6], ARGV[4])
  if orderId then
    if not same then return {'operation-reused'} end
    return found(orderId)
  end
end
if ARGV[3] ~= '' then
  local orderId, same = bound(KEYS[7], ARGV[5])
  if orderId then
    if not same then return {'reference-conflict'} end
    return found(orderId)
  end
end

local lineCount = #KEYS - 8
local quantities, prices, stocks, versions = {}, {}, {}, {}
local total = 0
for i = 1, lineCount do
  local invKey = KEYS[8 + i]
  local qty = tonumber(ARGV[10 + 2 * i])
  local stock = redis.call('HMGET', invKey, 'available', 'unitPrice', 'currency', 'version')
  local available = tonumber(stock[1]) or 0
  if stock[1] == false or available < qty then
    return {'insufficient', string.match(invKey, ':([^:]*)$'), tostring(qty), tostring(available)}
  end
  if stock[3] ~= ARGV[2] then
    return {'currency', string.match(invKey, ':([^:]*)$'), stock[3]}
  end
  local unitPrice = tonumber(stock[2])
  quantities[i], prices[i], stocks[i], versions[i] = qty, unitPrice, available, tonumber(stock[4]) or 0
  total = total + unitPrice * qty
end

-- The spend cap counts what was charged in the current window, atomically with the charge itself: the charge is
-- added first and taken back when it goes over the cap (the usual placement: one call on the counter, two when it
-- opens the window); a counter without a clock gets the window's (when its charge opened it, or at the first
-- refusal of one that lost it).
-- An order whose total alone is over the cap can never be placed under it, in any window: said so, no retry time.
if ARGV[6] ~= '' and total > tonumber(ARGV[6]) then return {'spend-cap-never', tostring(total)} end
if ARGV[6] ~= '' then
  local spent = redis.call('INCRBY', KEYS[8], int(total))
  if spent <= tonumber(ARGV[6]) then
    -- Within the cap: a charge that opened the window starts its clock; a later one finds it running (a counter
    -- that lost its clock gets it back at its first refusal, below).
    if spent == total then redis.call('PEXPIRE', KEYS[8], ARGV[7]) end
  else
    local left = redis.call('PTTL', KEYS[8])
    -- Taken back exactly: a counter this charge created is removed again, any other keeps its value and clock.
    if left == -1 and spent == total then
      redis.call('DEL', KEYS[8])
    else
      redis.call('INCRBY', KEYS[8], int(-total))
      -- A counter over the cap without a clock would refuse for ever: it gets the window's.
      if left == -1 then redis.call('PEXPIRE', KEYS[8], ARGV[7]) end
    end
    if left < 0 then left = tonumber(ARGV[7]) end
    return {'spend-cap', tostring(left)}
  end
end

-- Both fields in one write: the script read them above, and nothing runs between (a script is atomic).
for i = 1, lineCount do
  redis.call('HSET', KEYS[8 + i], 'available', int(stocks[i] - quantities[i]), 'version', int(versions[i] + 1))
end

-- The order record in the API's layout (the fields and order of OrderResponse), so the record is also the body of
-- the 201 that placed it and of every replay of it: the caller's parts with the prices and totals between them.
local items = {}
for i = 1, lineCount do
  items[i] = ARGV[11 + 2 * i] .. int(prices[i]) .. ',"lineTotal":' .. int(prices[i] * quantities[i]) .. '}'
end
local order = ARGV[9] .. table.concat(items, ',') .. '],"total":' .. int(total) .. ARGV[10]
-- Retention: the natural keys expire after the retention, the order and its ledger a minute later, each set with
-- its expiry in the command that writes it.
local retention = tonumber(ARGV[8])
local kept = int(retention + 60000)
local function stored(key, value, ttl)
  if retention > 0 then redis.call('SET', key, value, 'PX', ttl) else redis.call('SET', key, value) end
end
stored(KEYS[1], order, kept)
redis.call('RPUSH', KEYS[2], ARGV[11] .. int(total) .. '}')
local seq = int(redis.call('INCR', KEYS[5]))
redis.call('ZADD', KEYS[3], seq, ARGV[1])
redis.call('ZADD', KEYS[4], seq, ARGV[1])
if ARGV[4] ~= '' then stored(KEYS[6], ARGV[1] .. '\n' .. ARGV[4], ARGV[8]) end
if ARGV[3] ~= '' then stored(KEYS[7], ARGV[1] .. '\n' .. ARGV[5], ARGV[8]) end

-- Orders expire oldest first, so an index is pruned from its oldest entry up to the first order that still exists
-- (at most 16 a placement): while nothing has expired, one look at the oldest order of both indexes (EXISTS counts
-- an order that is the oldest of both twice).
if retention > 0 then
  redis.call('PEXPIRE', KEYS[2], kept)
  local heads = {redis.call('ZRANGE', KEYS[3], '0', '0')[1], redis.call('ZRANGE', KEYS[4], '0', '0')[1]}
  if redis.call('EXISTS', orderPrefix .. heads[1], orderPrefix .. heads[2]) < 2 then
    for i = 1, 2 do
      local index, head = KEYS[2 + i], heads[i]
      if head ~= ARGV[1] and redis.call('EXISTS', orderPrefix .. head) == 0 then
        for _, oldest in ipairs(redis.call('ZRANGE', index, '0', '15')) do
          if oldest ~= head and (oldest == ARGV[1] or redis.call('EXISTS', orderPrefix .. oldest) == 1) then break end
          redis.call('ZREM', index, oldest)
        end
      end
    end
  end
  redis.call('PEXPIRE', KEYS[3], kept)
  redis.call('PEXPIRE', KEYS[4], kept)
end
return {'created', order, ARGV[1]}
