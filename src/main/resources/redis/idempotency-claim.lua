-- Claims an idempotency record with SET NX and a lease, or returns the record that is already there.
-- Runs as one script so that a failed claim and the read of the winner's record are one round trip
-- (SET ... NX GET needs Redis 7; this also works on 6.2).
-- KEYS[1] idem:{t}:<sha256 of tenant, principal, method, route template, key>
-- ARGV[1] pending record (see IdempotencyRecord)  ARGV[2] lease in milliseconds
-- Returns nil when this caller now owns the key, else the existing record.
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return false
end
return redis.call('GET', KEYS[1])
