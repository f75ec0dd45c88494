-- wrk script: POST /api/v1/orders with a fresh Idempotency-Key on every request.
-- Arguments: sku, run nonce, and optionally a pause in milliseconds before each request of a connection (paces the
-- load to a target rate). The start time of the wrk run is added to the nonce, so no key is ever sent twice, even
-- by runs given the same nonce (the 10 s windows of a warm-up).
local counter = 0
local threads = {}

function setup(thread)
  thread:set("thread_id", #threads + 1)
  table.insert(threads, thread)
end

function init(args)
  sku = args[1] or "bench-sku"
  nonce = (args[2] or "run") .. "-" .. tostring(os.time())
  pause = tonumber(args[3] or "0")
end

function delay()
  return pause
end

function request()
  counter = counter + 1
  local body = '{"customerId":"bench","items":[{"sku":"' .. sku .. '","quantity":1}],' ..
    '"currency":"EUR","paymentToken":"tok_ok"}'
  local headers = {}
  headers["Content-Type"] = "application/json"
  headers["Authorization"] = "Bearer " .. os.getenv("BENCH_TOKEN")
  headers["Idempotency-Key"] = "bench-" .. nonce .. "-" .. thread_id .. "-" .. counter
  return wrk.format("POST", "/api/v1/orders", headers, body)
end
