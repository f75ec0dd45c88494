-- Reads one page of an order index, newest first, in one round trip.
-- KEYS[1] index  orders:{t}:all or orders:{t}:customer:<id>  (zset, score = placement sequence)
-- ARGV[1] exclusive upper bound of the sequence ('+inf' for the first page)  ARGV[2] page size + 1
-- Returns {orderId, sequence, orderId, sequence, ...}; one extra entry tells that another page exists.
local bound = ARGV[1]
if bound ~= '+inf' then bound = '(' .. bound end
return redis.call('ZRANGE', KEYS[1], bound, '-inf', 'BYSCORE', 'REV', 'LIMIT', '0', ARGV[2], 'WITHSCORES')
