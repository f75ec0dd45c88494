-- One beat of an MCP event stream (GET /mcp): the stream lives on while its session lives and it is the
-- session's newest stream; its record then lives as long as the session could. Nothing is counted.
-- KEYS[1] mcpsession:{t}:<session id>  KEYS[2] mcpstream:{t}:<session id>
-- ARGV[1] the stream's token  ARGV[2] idle timeout ms
-- Returns 1 while the stream lives, else 0.
if redis.call('EXISTS', KEYS[1]) == 1 and redis.call('GET', KEYS[2]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[2], ARGV[2])
  return 1
end
return 0
