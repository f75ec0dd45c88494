-- One GCRA step (lib/gcra) for a request whose limit is not folded into another script.
-- KEYS[1] rl:{t}:<policy>:<principal digest>  ARGV[1] quota  ARGV[2] window in ms
-- Returns {allowed (1|0), remaining, retry after ms (0 when allowed), ms until the quota is whole again}
-- reply: 1=allowed 2=remaining 3=retry 4=reset
return {gcra(KEYS[1], ARGV[1], ARGV[2])}
