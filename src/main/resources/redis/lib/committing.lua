-- Library (after lib/commit): an effect script made a committing one (LuaScript.committing). The effect script's
-- text takes the place of the line --@effect below, as the body of the function effect(KEYS, ARGV); the script's own
-- KEYS and ARGV are split between the commit and the effect by its first two arguments: how many of the keys, then of
-- the remaining arguments, are the commit's (the sizes of lib/commit's keys and args layouts, see ScriptCommit).
-- args: 1=commit-keys 2=commit-args 3=commit-and-effect...
local function effect(KEYS, ARGV)
--@effect
end
local nk, na = tonumber(ARGV[1]), tonumber(ARGV[2])
local CK, CA, K, A = {}, {}, {}, {}
for i = 1, #KEYS do if i <= nk then CK[i] = KEYS[i] else K[i - nk] = KEYS[i] end end
for i = 3, #ARGV do if i - 2 <= na then CA[i - 2] = ARGV[i] else A[i - 2 - na] = ARGV[i] end end
return committed(effect, CK, CA, K, A)
