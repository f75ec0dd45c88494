#!/usr/bin/env bash
# Restore drill for docs/runbooks/redis.md on a local redis-server (no cluster needed): writes keys to a Redis
# with AOF on, takes a snapshot the way the CronJob does (redis-cli --rdb), starts a fresh Redis whose data
# directory holds only that snapshot as dump.rdb, first with the AOF off (Redis 7 with appendonly yes and no AOF
# starts EMPTY and ignores dump.rdb), then turns the AOF on so Redis rewrites it from memory, shuts down and
# starts again as in production (appendonly yes), and checks every key is back. Exits non-zero on a difference.
set -euo pipefail
work="$(mktemp -d)"
trap 'redis-cli -p 6391 shutdown nosave >/dev/null 2>&1 || true; redis-cli -p 6392 shutdown nosave >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
mkdir -p "$work/live" "$work/backup" "$work/restored"
redis-server --port 6391 --dir "$work/live" --appendonly yes --appendfsync everysec --daemonize yes \
  --logfile "$work/live.log"
until redis-cli -p 6391 ping >/dev/null 2>&1; do sleep 0.1; done
for i in $(seq 1 200); do redis-cli -p 6391 set "{t1}:order:$i" "{\"id\":$i}" >/dev/null; done
redis-cli -p 6391 hset "{t1}:inventory:sku-1" available 7 reserved 3 >/dev/null
redis-cli -p 6391 --rdb "$work/backup/dump-drill.rdb" >/dev/null
redis-cli -p 6391 shutdown nosave >/dev/null || true

cp "$work/backup/dump-drill.rdb" "$work/restored/dump.rdb"
start() {
  redis-server --port 6392 --dir "$work/restored" --appendfsync everysec --daemonize yes \
    --logfile "$work/restored.log" "$@"
  until redis-cli -p 6392 ping >/dev/null 2>&1; do sleep 0.1; done
}
check() {
  size="$(redis-cli -p 6392 dbsize)"
  [ "$size" = "201" ] || { echo "$1: $size keys, expected 201"; exit 1; }
  [ "$(redis-cli -p 6392 get '{t1}:order:137')" = '{"id":137}' ] || { echo "$1: order 137 differs"; exit 1; }
  [ "$(redis-cli -p 6392 hget '{t1}:inventory:sku-1' reserved)" = "3" ] || { echo "$1: inventory differs"; exit 1; }
}
start --appendonly no
check "loaded from the snapshot"
redis-cli -p 6392 config set appendonly yes >/dev/null
for _ in $(seq 1 100); do
  info="$(redis-cli -p 6392 info persistence | tr -d '\r')"
  if echo "$info" | grep -q '^aof_rewrite_in_progress:0' && echo "$info" | grep -q '^aof_rewrite_scheduled:0' \
    && echo "$info" | grep -q '^aof_last_bgrewrite_status:ok' && ls "$work/restored/appendonlydir" 2>/dev/null | grep -q base; then
    break
  fi
  sleep 0.1
done
redis-cli -p 6392 shutdown >/dev/null 2>&1 || true
sleep 0.5
rm -f "$work/restored/dump.rdb"
start --appendonly yes
check "restarted from the rebuilt AOF"
echo "restore drill: 201 keys back from the snapshot, AOF rebuilt, restart with appendonly yes keeps them"
