-- wrk script: POST the same order with the same Idempotency-Key, so every request is a replay; Retry-After honoured
-- (retry-after.lua).
dofile((string.match(debug.getinfo(1, "S").source, "^@(.*/)") or "") .. "retry-after.lua")

function init(args)
  key = args[1]
  sku = args[2]
end

function request()
  local body = '{"customerId":"bench","items":[{"sku":"' .. sku .. '","quantity":1}],' ..
    '"currency":"EUR","paymentToken":"tok_ok"}'
  local headers = {}
  headers["Content-Type"] = "application/json"
  headers["Authorization"] = "Bearer " .. os.getenv("BENCH_TOKEN")
  headers["Idempotency-Key"] = key
  return wrk.format("POST", "/api/v1/orders", headers, body)
end
