-- Claims an idempotency record with a lease, or returns the record that is already there; a fresh key
-- counts against the principal's new-key budget, so one principal cannot fill the store with keys.
-- One script, so that a failed claim and the read of the winner's record are one round trip.
-- KEYS[1] idem:{t}:<sha256 of tenant, principal, method, route template, key>
-- KEYS[2] nk:{t}:<principal digest>  (counter of fresh keys in the window; only when ARGV[3] ~= '')
-- ARGV[1] pending record (see IdempotencyRecord)  ARGV[2] lease in milliseconds
-- ARGV[3] new-key quota, '' for none  ARGV[4] new-key window in milliseconds
-- Returns nil when this caller now owns the key, the existing record, or {'budget', ms until the window ends}.
local existing = redis.call('GET', KEYS[1])
if existing then return existing end
if ARGV[3] ~= '' then
  local opened = tonumber(redis.call('GET', KEYS[2])) or 0
  if opened >= tonumber(ARGV[3]) then
    local left = redis.call('PTTL', KEYS[2])
    if left < 0 then left = tonumber(ARGV[4]) end
    return {'budget', tostring(left)}
  end
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
if ARGV[3] ~= '' then
  redis.call('INCR', KEYS[2])
  if redis.call('PTTL', KEYS[2]) < 0 then redis.call('PEXPIRE', KEYS[2], ARGV[4]) end
end
return false
