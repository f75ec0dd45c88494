#!/usr/bin/env bash
# Two builds of this service side by side in one run, as deployed (tokens verified, limits on at quotas that never
# refuse, telemetry exported over OTLP to a receiver that keeps nothing), each on its own redis-server: both warmed
# up in alternated 10 s windows of unique-key POSTs, then alternated measured rounds that print throughput, p99 and
# the CPU time per request of each JVM and its Redis. For "did this change make a request cheaper".
# Needs redis-server, wrk, curl, python3 and openssl. Loopback only; every loop is bounded.
# Usage: src/bench/ab.sh APP_DIR_A APP_DIR_B [warm-up windows per build, default 6] [rounds, default 4]
set -euo pipefail
cd "$(dirname "$0")/../.."
A=$(cd "${1:?usage: ab.sh APP_DIR_A APP_DIR_B}" && pwd)
B=$(cd "${2:?usage: ab.sh APP_DIR_A APP_DIR_B}" && pwd)
WINDOWS=${3:-6}
ROUNDS=${4:-4}
OUT=target/bench/ab
CONNECTIONS=32
mkdir -p "$OUT"
# shellcheck source=src/bench/common.sh
source src/bench/common.sh
mint_token
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
python3 src/bench/otlp-sink.py 14330 > "$OUT/otlp-sink.log" 2>&1 &
pids+=($!)
start() { # name app-dir http-port management-port redis-port
  redis-server --port "$5" --bind 127.0.0.1 --save "" --appendonly no --loglevel warning > "$OUT/redis-$1.log" 2>&1 &
  pids+=($!)
  eval "REDIS_$1=$!"
  sleep 0.3
  local started; started=$(date +%s%N)
  (cd "$2" && exec java -Xmx512m -Dquarkus.http.port="$3" -Dquarkus.http.host=127.0.0.1 -Dquarkus.management.port="$4" \
    -Dquarkus.management.host=127.0.0.1 -Dquarkus.redis.hosts="redis://127.0.0.1:$5" \
    -Dquarkus.oidc.public-key="$PUBLIC_KEY" -Dquarkus.oidc.token.issuer="$ISSUER" \
    -Dorders.limits.reads.unknown.quota=1000000000 -Dorders.limits.writes.unknown.quota=1000000000 \
    -Dorders.limits.new-keys.unknown.quota=1000000000 -Dorders.limits.spend.unknown.amount=1000000000000000 \
    -Dquarkus.otel.exporter.otlp.protocol=http/protobuf -Dquarkus.otel.exporter.otlp.endpoint=http://127.0.0.1:14330 \
    -Dquarkus.log.level=WARN -jar quarkus-run.jar) > "$OUT/$1.log" 2>&1 &
  pids+=($!)
  eval "JVM_$1=$!"
  wait_http "http://127.0.0.1:$4/q/health/ready" "$started" >/dev/null || { echo "$1 did not start"; exit 1; }
  curl -sf -X PUT "http://127.0.0.1:$3/api/v1/inventory/bench" -H 'Content-Type: application/json' -H "$AUTH" \
    -d '{"available":1000000000,"unitPrice":100,"currency":"EUR"}' >/dev/null
}
start a "$A" 18441 19441 16441
start b "$B" 18442 19442 16442
echo "A: $A"
echo "B: $B"
for i in $(seq 1 "$WINDOWS"); do
  wrk -t2 -c"$CONNECTIONS" -d10s -s src/bench/unique-orders.lua http://127.0.0.1:18441 -- bench warm-a >/dev/null
  wrk -t2 -c"$CONNECTIONS" -d10s -s src/bench/unique-orders.lua http://127.0.0.1:18442 -- bench warm-b >/dev/null
done
for i in $(seq 1 "$ROUNDS"); do
  CPU_PIDS="jvm=$JVM_a redis=$REDIS_a" run_wrk "a-$i" 10 -s src/bench/unique-orders.lua http://127.0.0.1:18441 -- bench "a$i"
  CPU_PIDS="jvm=$JVM_b redis=$REDIS_b" run_wrk "b-$i" 10 -s src/bench/unique-orders.lua http://127.0.0.1:18442 -- bench "b$i"
done
