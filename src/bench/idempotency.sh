#!/usr/bin/env bash
# Benchmark of the idempotency layer, on loopback only, in one run:
#   1. POST /api/v1/orders with unique keys, enforcement on vs off: throughput ratio and p99 of each;
#   2. replay of one key vs GET /api/v1/orders/{id}: throughput ratio;
#   3. POST /api/v1/orders with limits on (quotas too high to ever refuse) vs limits off.
# Needs redis-server and wrk (Debian: apt-get install -y redis-server wrk). Every loop is bounded.
# Usage: src/bench/idempotency.sh [seconds per run, default 20] [connections, default 32]
set -euo pipefail
cd "$(dirname "$0")/../.."
DURATION=${1:-20}
CONNECTIONS=${2:-32}
APP_PORT=18181
REDIS_PORT=16390
OUT=target/bench
mkdir -p "$OUT"

command -v wrk >/dev/null || { echo "wrk is required (apt-get install -y wrk)"; exit 1; }
command -v redis-server >/dev/null || { echo "redis-server is required (apt-get install -y redis-server)"; exit 1; }
[ -f target/quarkus-app/quarkus-run.jar ] || ./mvnw -B -q compile quarkus:build

# Bearer tokens as deployed: a key pair made for this run (never committed) and one token signed with it.
# shellcheck source=src/bench/common.sh
source src/bench/common.sh
mint_token
MANAGEMENT_PORT=19181

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save "" --appendonly no --daemonize no \
  --loglevel warning > "$OUT/redis.log" 2>&1 &
pids+=($!)

start_app() {
  java -Xmx512m -Dquarkus.http.port=$APP_PORT -Dquarkus.redis.hosts=redis://127.0.0.1:$REDIS_PORT \
    -Dquarkus.management.port=$MANAGEMENT_PORT -Dquarkus.oidc.public-key="$PUBLIC_KEY" \
    -Dquarkus.oidc.token.issuer=$ISSUER \
    -Dorders.limits.reads.unknown.quota=1000000000 -Dorders.limits.writes.unknown.quota=1000000000 \
    -Dorders.limits.new-keys.unknown.quota=1000000000 -Dorders.limits.spend.unknown.amount=1000000000000000 \
    -Dquarkus.otel.sdk.disabled=true -Dquarkus.log.level=WARN "$@" \
    -jar target/quarkus-app/quarkus-run.jar > "$OUT/app.log" 2>&1 &
  APP_PID=$!
  for _ in $(seq 1 100); do
    curl -sf "http://127.0.0.1:$MANAGEMENT_PORT/q/health/ready" >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  echo "service did not become ready"; cat "$OUT/app.log"; exit 1
}
stop_app() { kill "$APP_PID"; wait "$APP_PID" 2>/dev/null || true; }

seed() {
  curl -sf -X PUT "http://127.0.0.1:$APP_PORT/api/v1/inventory/$1" -H 'Content-Type: application/json' \
    -H "$AUTH" \
    -d '{"available":1000000000,"unitPrice":100,"currency":"EUR"}' >/dev/null
}

run() { # name, wrk args...
  run_wrk "$1" "$DURATION" "${@:2}"
  if [ "$1" = place-enforced ]; then
    local replayed
    replayed=$(curl -s "http://127.0.0.1:$MANAGEMENT_PORT/q/metrics" | awk -F' ' '/^idempotency_requests_total\{.*outcome="replayed"/ {s+=$2} END {print s+0}')
    echo "  replays counted by the service so far: $replayed (must be 0: every key is new)"
  fi
}

warm() { wrk -t2 -c"$CONNECTIONS" -d"${WARMUP:-20}s" "$@" >/dev/null; }

BASE="http://127.0.0.1:$APP_PORT"
echo "machine: $(nproc) cores, $(free -g | awk '/Mem/ {print $2}') GiB; $(java -version 2>&1 | head -1)"
echo "runs of ${DURATION}s, ${CONNECTIONS} connections, 2 wrk threads"

start_app
seed bench-on
warm -s src/bench/unique-orders.lua "$BASE" -- bench-on warm-on
run place-enforced -s src/bench/unique-orders.lua "$BASE" -- bench-on run-on

KEY="bench-replay-$RANDOM"
ORDER_ID=$(place_one "$BASE" bench-on "$KEY")
warm -s src/bench/replay-order.lua "$BASE" -- "$KEY" bench-on
run replay -s src/bench/replay-order.lua "$BASE" -- "$KEY" bench-on
warm -s src/bench/read-order.lua "$BASE/api/v1/orders/$ORDER_ID"
run read -s src/bench/read-order.lua "$BASE/api/v1/orders/$ORDER_ID"
stop_app

start_app -Dorders.idempotency.endpoints.place-order.enabled=false
seed bench-off
warm -s src/bench/unique-orders.lua "$BASE" -- bench-off warm-off
run place-unprotected -s src/bench/unique-orders.lua "$BASE" -- bench-off run-off
stop_app

start_app -Dorders.limits.enabled=false
seed bench-nolimits
warm -s src/bench/unique-orders.lua "$BASE" -- bench-nolimits warm-nolimits
run place-limits-off -s src/bench/unique-orders.lua "$BASE" -- bench-nolimits run-nolimits
stop_app

set +o pipefail
echo "memory per stored record (MEMORY USAGE, bytes):"
redis-cli -p "$REDIS_PORT" --scan --pattern 'idem:*' | head -200 | while read -r k; do
  redis-cli -p "$REDIS_PORT" MEMORY USAGE "$k"
done | sort -n | awk '{a[NR]=$1} END {print "  records sampled " NR ", median " a[int((NR+1)/2)] ", max " a[NR]}'
echo "natural keys (opkey:*) per order (bytes):"
redis-cli -p "$REDIS_PORT" --scan --pattern 'opkey:*' | head -50 | while read -r k; do
  redis-cli -p "$REDIS_PORT" MEMORY USAGE "$k"
done | sort -n | awk '{a[NR]=$1} END {print "  sampled " NR ", median " a[int((NR+1)/2)]}'
for kind in order ledger; do
  echo "$kind records (${kind}:*) per order (bytes):"
  redis-cli -p "$REDIS_PORT" --scan --pattern "$kind:*" | head -50 | while read -r k; do
    redis-cli -p "$REDIS_PORT" MEMORY USAGE "$k"
  done | sort -n | awk '{a[NR]=$1} END {print "  sampled " NR ", median " a[int((NR+1)/2)]}'
done

awk -v on="$RPS_place_enforced" -v off="$RPS_place_unprotected" -v rp="$RPS_replay" -v rd="$RPS_read" \
  -v lo="$RPS_place_limits_off" \
  'BEGIN { printf "on/off throughput ratio: %.2f (target >= 0.90)\nreplay/read throughput ratio: %.2f (target >= 1.0)\nlimits on/off throughput ratio: %.2f\n", on/off, rp/rd, on/lo }'
# wrk counts every answer in its rate: a run with refusals (or closed connections) in it does not measure what its
# ratio names.
if [ ${#INVALID_RUNS[@]} -gt 0 ]; then
  echo "not valid: runs with non-2xx answers or socket errors: ${INVALID_RUNS[*]}"
  exit 1
fi
