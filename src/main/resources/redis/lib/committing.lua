-- Library (after lib/commit): an effect script made a committing one (LuaScript.committing). The effect script's
-- text takes the place of the line --@effect below, as the body of the function effect(KEYS, ARGV); the script's own
-- KEYS and ARGV are split between the commit and the effect by its first two arguments: how many of the keys, then of
-- the remaining arguments, are the commit's (the sizes of lib/commit's keys and args layouts, see ScriptCommit).
-- args: 1=commit-keys 2=commit-args 3=commit-and-effect...
local function effect(KEYS, ARGV)
--@effect
end
local nk, na = tonumber(ARGV[1]), tonumber(ARGV[2])
-- Split by the interpreter's unpack (in C), not element by element.
return committed(effect, {unpack(KEYS, 1, nk)}, {unpack(ARGV, 3, 2 + na)}, {unpack(KEYS, nk + 1)},
  {unpack(ARGV, 3 + na)})
