-- Sets or lifts one brake and bumps the brakes' version in one step, so an instance that sees the new version
-- reads the new set (SPEC 13). Both keys share the hash tag {ghostguard}: one cluster slot.
-- KEYS[1] brakes:{ghostguard}          hash: scope -> brake JSON
-- KEYS[2] brakes:{ghostguard}:version  counter of changes
-- ARGV[1] scope  ARGV[2] brake JSON, '' to lift
-- Returns 1 when something changed, 0 when a lift found no such brake.
local changed
if ARGV[2] == '' then
  changed = redis.call('HDEL', KEYS[1], ARGV[1])
else
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
  changed = 1
end
if changed == 1 then redis.call('INCR', KEYS[2]) end
return changed
