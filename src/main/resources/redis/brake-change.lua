-- Sets or lifts one brake and bumps the brakes' version in one step, so an instance that sees the new version
-- reads the new set (SPEC 13). On the way it drops every brake that has ended (Redis before 7.4 has no expiry of a
-- hash field), and it refuses a brake of a new scope while the hash holds as many brakes as it may: the bound holds
-- across instances. All keys share the hash tag {ghostguard}: one cluster slot.
-- KEYS[1] brakes:{ghostguard}          hash: scope -> brake JSON
-- KEYS[2] brakes:{ghostguard}:version  counter of changes
-- KEYS[3] brakes:{ghostguard}:ends     sorted set: scope of a brake that ends by itself -> when (epoch ms)
-- ARGV[1] scope  ARGV[2] brake JSON, '' to lift  ARGV[3] when it ends (epoch ms), '' for never  ARGV[4] now (epoch ms)
-- ARGV[5] the most brakes held (when setting)  ARGV[6..] fields naming the same scope in an earlier form, dropped
-- Returns 1 when the brake was set or lifted, 0 when a lift found no such brake, -1 when a brake of a new scope was
-- refused because the hash is full.
local swept = false
for _, scope in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', ARGV[4])) do
  redis.call('HDEL', KEYS[1], scope)
  redis.call('ZREM', KEYS[3], scope)
  swept = true
end
local result = 0
if ARGV[2] == '' then
  for i = 1, #ARGV do
    if i == 1 or i >= 6 then
      if redis.call('HDEL', KEYS[1], ARGV[i]) == 1 then result = 1 end
      redis.call('ZREM', KEYS[3], ARGV[i])
    end
  end
else
  local known = redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1
  for i = 6, #ARGV do
    if redis.call('HEXISTS', KEYS[1], ARGV[i]) == 1 then known = true end
  end
  if not known and redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[5]) then
    result = -1
  else
    for i = 6, #ARGV do
      redis.call('HDEL', KEYS[1], ARGV[i])
      redis.call('ZREM', KEYS[3], ARGV[i])
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
