-- Sets or lifts one brake and bumps the brakes' version in one step, so an instance that sees the new version
-- reads the new set (docs/runbooks/brakes.md). On the way it drops every brake that has ended by Redis's own clock (Redis before
-- 7.4 has no expiry of a hash field; one clock for every instance). A new principal brake is refused while its
-- tenant holds as many principal brakes as it may, or the hash as many brakes as it may (the bounds hold across
-- instances; a platform operator passes no bound). An automatic brake never replaces a brake held; an operator
-- bound to one tenant never replaces or lifts a brake set by anyone but that tenant's operators or the automatic
-- brake, nor one set with the platform's reach (its JSON has "reach":"platform"), whatever tenant its setter has. All keys share the hash tag {ghostguard}: one cluster slot.
-- KEYS[1] brakes:{ghostguard}          hash: scope -> brake JSON
-- KEYS[2] brakes:{ghostguard}:version  counter of changes
-- KEYS[3] brakes:{ghostguard}:ends     sorted set: scope of a brake that ends by itself -> when (epoch ms)
-- ARGV[1] scope  ARGV[2] brake JSON, '' to lift  ARGV[3] when it ends (epoch ms), '' for never
-- ARGV[4] the setter's own tenant followed by ':' when it may touch only its tenant's brakes, '' for any brake
-- ARGV[5] the most brakes held, ARGV[6] the most principal brakes of the tenant, '' for no bound
-- ARGV[7] the prefix of the tenant's principal fields ('principal:<tenant>:'), ARGV[8] 'absent' to set only when
-- no brake of the scope is held (the automatic brake), else 'replace'  ARGV[9..] fields naming the same scope in an
-- earlier form
-- Returns 1 when the brake was set or lifted, 0 when a lift found no such brake or an automatic one found a brake
-- held, -1 when a brake of a new scope was refused past a bound, -2 when a brake held is not the setter's to touch.
if redis.replicate_commands then redis.replicate_commands() end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local swept = false
for _, scope in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now)) do
  redis.call('HDEL', KEYS[1], scope)
  redis.call('ZREM', KEYS[3], scope)
  swept = true
end
local fields = {ARGV[1]}
for i = 9, #ARGV do fields[#fields + 1] = ARGV[i] end
local known = false
local foreign = false
for _, field in ipairs(fields) do
  local held = redis.call('HGET', KEYS[1], field)
  if held then
    known = true
    if ARGV[4] ~= '' then
      local ok, brake = pcall(cjson.decode, held)
      local by = ok and type(brake) == 'table' and brake.setBy or nil
      if type(by) ~= 'string' or (by ~= 'auto' and string.sub(by, 1, #ARGV[4]) ~= ARGV[4])
        or brake.reach == 'platform' then foreign = true end
    end
  end
end
local result = 0
if foreign then
  result = -2
elseif ARGV[2] == '' then
  for _, field in ipairs(fields) do
    if redis.call('HDEL', KEYS[1], field) == 1 then result = 1 end
    redis.call('ZREM', KEYS[3], field)
  end
elseif known and ARGV[8] == 'absent' then
  result = 0
else
  local full = false
  if not known and ARGV[5] ~= '' and redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[5]) then full = true end
  if not known and not full and ARGV[6] ~= '' and ARGV[7] ~= '' then
    local count = 0
    for _, field in ipairs(redis.call('HKEYS', KEYS[1])) do
      if string.sub(field, 1, #ARGV[7]) == ARGV[7] then count = count + 1 end
    end
    if count >= tonumber(ARGV[6]) then full = true end
  end
  if full then
    result = -1
  else
    for i = 2, #fields do
      redis.call('HDEL', KEYS[1], fields[i])
      redis.call('ZREM', KEYS[3], fields[i])
    end
    redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
    if ARGV[3] == '' then
      redis.call('ZREM', KEYS[3], ARGV[1])
    else
      redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1])
    end
    result = 1
  end
end
if swept or result == 1 then redis.call('INCR', KEYS[2]) end
return result
