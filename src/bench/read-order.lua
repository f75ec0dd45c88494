-- wrk script: GET one order (the path given to wrk), with the bench token; Retry-After honoured (retry-after.lua).
dofile((string.match(debug.getinfo(1, "S").source, "^@(.*/)") or "") .. "retry-after.lua")

function request()
  return wrk.format("GET", nil, {["Authorization"] = "Bearer " .. os.getenv("BENCH_TOKEN")})
end
