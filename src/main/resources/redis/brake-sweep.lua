-- Removes the brakes that have ended (SPEC 13), run by an instance that holds one at its poll: those the sorted set
-- says ended by now, and each field the instance saw ended while it still holds the value seen (a brake stored by an
-- earlier version has no entry in the sorted set; one replaced meanwhile is left alone). Bumps the version when
-- something was removed. All keys share the hash tag {ghostguard}.
-- KEYS[1] brakes:{ghostguard}  KEYS[2] brakes:{ghostguard}:version  KEYS[3] brakes:{ghostguard}:ends
-- ARGV[1] now (epoch ms)  ARGV[2k], ARGV[2k+1] a field seen ended and its value as seen
-- Returns how many brakes were removed.
local removed = 0
for _, scope in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', ARGV[1])) do
  removed = removed + redis.call('HDEL', KEYS[1], scope)
  redis.call('ZREM', KEYS[3], scope)
end
for i = 2, #ARGV - 1, 2 do
  if redis.call('HGET', KEYS[1], ARGV[i]) == ARGV[i + 1] then
    removed = removed + redis.call('HDEL', KEYS[1], ARGV[i])
    redis.call('ZREM', KEYS[3], ARGV[i])
  end
end
if removed > 0 then redis.call('INCR', KEYS[2]) end
return removed
