-- Cancels one order atomically: flips CONFIRMED to CANCELLED, restocks every line and appends one
-- REFUND to the ledger, with the payment provider's reference of the refund made just before. A second
-- cancellation finds CANCELLED and changes nothing, so a refund is never booked twice. The order keeps its
-- retention (KEEPTTL; the ledger list keeps its own).
--
-- KEYS[1] order record  order:{t}:<orderId>   KEYS[2] ledger  ledger:{t}:<orderId>
-- KEYS[3..] inventory   inv:{t}:<sku>, one per order line in the order's line order
-- ARGV[1] refund ledger entry id  ARGV[2] refund time (ISO-8601)  ARGV[3] the provider's refund reference
-- Returns {'cancelled', orderJson} | {'unchanged', orderJson} | {'missing'}

local raw = redis.call('GET', KEYS[1])
if not raw then return {'missing'} end
local order = cjson.decode(raw)
if order.status ~= 'CONFIRMED' then return {'unchanged', raw} end

for i, line in ipairs(order.items) do
  redis.call('HINCRBY', KEYS[2 + i], 'available', line.quantity)
  redis.call('HINCRBY', KEYS[2 + i], 'version', 1)
end
-- Only the status changes, in place, so the record keeps the API's layout (place-order.lua) and stays the body of
-- every answer that returns it; a record in any other layout is written out again whole.
local updated, changed = string.gsub(raw, '^({"id":"[^"]*","status":)"CONFIRMED"', '%1"CANCELLED"', 1)
if changed ~= 1 then
  order.status = 'CANCELLED'
  updated = cjson.encode(order)
end
redis.call('SET', KEYS[1], updated, 'KEEPTTL')
redis.call('RPUSH', KEYS[2], cjson.encode({
  id = ARGV[1], orderId = order.id, type = 'REFUND', amount = order.total, currency = order.currency,
  createdAt = ARGV[2], providerReference = ARGV[3]
}))
return {'cancelled', updated}
