-- The MCP session registry (docs/mcp.md), shared by every instance: who owns a session, how many sessions a principal
-- holds, and the reads rate of every message, in one round trip per message (after lib/gcra).
-- KEYS[1] mcpsession:{t}:<session id>           string: the owner's principal digest; PX the idle timeout
-- KEYS[2] mcpsessions:{t}:<principal digest>     sorted set: session id -> idle deadline (server ms)
-- KEYS[3] rl:{t}:reads:<principal digest>        GCRA state (lib/gcra)
-- KEYS[4] mcpstream:{t}:<session id>             string: token of the session's newest event stream
-- ARGV[1] op: 'open' (a new session), 'use' (a message of a session), 'stream' (its event stream), 'close'
-- ARGV[2] the caller's principal digest  ARGV[3] session id  ARGV[4] idle timeout ms
-- ARGV[5] most sessions per principal ('open')  ARGV[6] reads quota ('' when not counted)  ARGV[7] window ms
-- ARGV[8] the new stream's token ('stream')
-- Returns {outcome, allowed, remaining, retry after ms, reset ms} (the GCRA fields '' when not counted).
-- outcome: 'limited' (over the rate; nothing else looked at), 'full' (the principal holds the most it may),
-- 'unknown' (no such session of this principal: expired, closed, or another's), 'ok'.
local op, owner, session, idle = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
local allowed, remaining, retry, reset = '', '', '', ''
if ARGV[6] ~= '' then
  allowed, remaining, retry, reset = gcra(KEYS[3], ARGV[6], ARGV[7])
  if allowed == 0 then return {'limited', allowed, remaining, retry, reset} end
end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
if op == 'open' then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
  if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[5]) then
    return {'full', allowed, remaining, retry, reset}
  end
  redis.call('SET', KEYS[1], owner, 'PX', ARGV[4])
else
  if redis.call('GET', KEYS[1]) ~= owner then return {'unknown', allowed, remaining, retry, reset} end
  if op == 'close' then
    redis.call('DEL', KEYS[1], KEYS[4])
    redis.call('ZREM', KEYS[2], session)
    return {'ok', allowed, remaining, retry, reset}
  end
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
  if op == 'stream' then redis.call('SET', KEYS[4], ARGV[8], 'PX', ARGV[4]) end
end
-- Every deadline in the set is at most now + idle, so the set lives as long as its longest-lived session.
redis.call('ZADD', KEYS[2], now + idle, session)
redis.call('PEXPIRE', KEYS[2], ARGV[4])
return {'ok', allowed, remaining, retry, reset}
