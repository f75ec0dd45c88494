-- Removes the brakes that have ended by Redis's own clock (docs/runbooks/brakes.md; one clock for every instance), run by an
-- instance that holds one at its poll: those the sorted set says ended, and each field the instance saw ended while
-- it still holds the value seen and its end has passed (a brake stored by an earlier version, or a record this
-- version cannot read, has no entry in the sorted set; one replaced meanwhile is left alone). Bumps the version when
-- something was removed. All keys share the hash tag {ghostguard}.
-- KEYS[1] brakes:{ghostguard}  KEYS[2] brakes:{ghostguard}:version  KEYS[3] brakes:{ghostguard}:ends
-- ARGV[3k+1], ARGV[3k+2], ARGV[3k+3] a field seen ended, its value as seen, and when it ends (epoch ms)
-- Returns how many brakes were removed.
if redis.replicate_commands then redis.replicate_commands() end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local removed = 0
for _, scope in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now)) do
  removed = removed + redis.call('HDEL', KEYS[1], scope)
  redis.call('ZREM', KEYS[3], scope)
end
for i = 1, #ARGV - 2, 3 do
  if tonumber(ARGV[i + 2]) <= now and redis.call('HGET', KEYS[1], ARGV[i]) == ARGV[i + 1] then
    removed = removed + redis.call('HDEL', KEYS[1], ARGV[i])
    redis.call('ZREM', KEYS[3], ARGV[i])
  end
end
if removed > 0 then redis.call('INCR', KEYS[2]) end
return removed
