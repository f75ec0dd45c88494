-- Library (prepended to the scripts that count requests): one GCRA step for one subject (tenant, principal,
-- policy). Allows the request when it fits the quota per window (burst = quota) and records it; denies it
-- otherwise and records nothing. Uses the server clock, so every instance of the service shares one view of
-- time and one quota.
-- key: rl:{t}:<policy>:<principal digest> (string: theoretical arrival time in ms)
-- Returns allowed (1|0), remaining, retry after ms (0 when allowed), ms until the quota is whole again.
-- gcra_read takes the key's value as a script read it (false when none) with other keys in one call.
local function gcra_read(key, quotaArg, windowArg, stored)
  local time = redis.call('TIME')
  local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
  local quota = tonumber(quotaArg)
  local window = tonumber(windowArg)
  local interval = window / quota
  local tat = tonumber(stored) or now
  if tat < now then tat = now end
  local next = tat + interval
  local allowedFrom = next - window
  if now < allowedFrom then
    return 0, 0, math.ceil(allowedFrom - now), math.ceil(tat - now)
  end
  local reset = math.ceil(next - now)
  redis.call('SET', key, string.format('%.3f', next), 'PX', string.format('%d', math.max(1, reset)))
  return 1, math.floor((now - allowedFrom) / interval), 0, reset
end

local function gcra(key, quotaArg, windowArg)
  return gcra_read(key, quotaArg, windowArg, redis.call('GET', key))
end

