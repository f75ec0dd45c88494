#!/usr/bin/env bash
# Side by side, on loopback only: this service against the Spring Boot peer with an idempotency library
# (../shared/peers/spring-idempotent), both verifying the same bearer tokens, each on its own redis-server.
#   1. start-up to ready and idle RSS: ours on JDK 17, on JDK 25, on JDK 25 with an AOT cache; the peer on JDK 17;
#   2. warm-up, then alternated rounds: POST /api/v1/orders with unique keys (ours, the peer, ours with
#      place-order idempotency off), replay of one key and GET of its order (ours);
#   3. every round, then the medians and the ratios: ours/peer, idempotency on/off, replay/read.
# Needs redis-server, wrk and curl (Debian: apt-get install -y redis-server wrk curl). Every loop is bounded.
# Usage: src/bench/compare.sh [rounds, default 3] [seconds per round, default 10] [warm-up seconds, default 30]
#        [connections, default 32]; PEER_SRC overrides where the peer's sources are, JDK25 where JDK 25 is.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
ROUNDS=${1:-3}
DURATION=${2:-10}
WARMUP=${3:-30}
CONNECTIONS=${4:-32}
PEER_SRC=${PEER_SRC:-../shared/peers/spring-idempotent}
JDK25=${JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64}
OUT=target/bench/compare
mkdir -p "$OUT"
# shellcheck source=src/bench/common.sh
source src/bench/common.sh

for tool in wrk redis-server curl openssl; do
  command -v "$tool" >/dev/null || { echo "$tool is required"; exit 1; }
done

echo "== build"
[ -f target/quarkus-app/quarkus-run.jar ] || ./mvnw -B -q compile quarkus:build
# The peer is copied out first: its home may be read-only.
rm -rf "$OUT/peer" && cp -r "$PEER_SRC" "$OUT/peer" && chmod -R u+w "$OUT/peer"
"$ROOT/mvnw" -B -q -f "$OUT/peer/pom.xml" package
mint_token

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

start_redis() { # port
  redis-server --port "$1" --bind 127.0.0.1 --save "" --appendonly no --daemonize no --loglevel warning \
    > "$OUT/redis-$1.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 50); do redis-cli -p "$1" ping >/dev/null 2>&1 && return 0; sleep 0.1; done
  echo "redis on $1 did not start"; exit 1
}

# Ours as deployed: tokens verified, limits on with quotas too high to refuse a benchmark.
start_ours() { # name http-port management-port redis-port java [extra options...]
  local name=$1 http=$2 management=$3 redis=$4 java=$5; shift 5
  local started; started=$(date +%s%N)
  "$java" -Xmx512m "$@" -Dquarkus.http.port="$http" -Dquarkus.http.host=127.0.0.1 \
    -Dquarkus.management.port="$management" -Dquarkus.management.host=127.0.0.1 \
    -Dquarkus.redis.hosts="redis://127.0.0.1:$redis" \
    -Dquarkus.oidc.public-key="$PUBLIC_KEY" -Dquarkus.oidc.token.issuer="$ISSUER" \
    -Dorders.limits.reads.unknown.quota=1000000000 -Dorders.limits.writes.unknown.quota=1000000000 \
    -Dorders.limits.new-keys.unknown.quota=1000000000 -Dorders.limits.spend.unknown.amount=1000000000000000 \
    -Dquarkus.otel.sdk.disabled=true -Dquarkus.log.level=WARN \
    -jar target/quarkus-app/quarkus-run.jar > "$OUT/$name.log" 2>&1 &
  LAST_PID=$!
  pids+=("$LAST_PID")
  LAST_READY_MS=$(wait_http "http://127.0.0.1:$management/q/health/ready" "$started") \
    || { echo "$name did not start"; cat "$OUT/$name.log"; exit 1; }
}

start_peer() { # http-port redis-port
  local started; started=$(date +%s%N)
  JAVA_TOOL_OPTIONS="-Dpeer.auth.enabled=true -Dpeer.auth.public-key=$PUBLIC_PEM -Dpeer.auth.issuer=$ISSUER" \
    "$OUT/peer/run.sh" "$1" "$2" > "$OUT/peer.log" 2>&1 &
  LAST_PID=$!
  pids+=("$LAST_PID")
  LAST_READY_MS=$(wait_http "http://127.0.0.1:$1/api/v1/orders/none" "$started") \
    || { echo "the peer did not start"; cat "$OUT/peer.log"; exit 1; }
}

stop() { kill "$1" 2>/dev/null || true; wait "$1" 2>/dev/null || true; }

idle_rss() { sleep 5; rss_mib "$1"; }

seed() { # base-url sku
  curl -sf -X PUT "$1/api/v1/inventory/$2" -H 'Content-Type: application/json' -H "$AUTH" \
    -d '{"available":1000000000,"unitPrice":100,"currency":"EUR"}' >/dev/null
}

echo "machine: $(nproc) cores, $(free -g | awk '/Mem/ {print $2}') GiB, $(java -version 2>&1 | head -1)"
echo "wrk -t2 -c$CONNECTIONS, ${WARMUP}s warm-up per service, $ROUNDS alternated rounds of ${DURATION}s"

start_redis 16401
start_redis 16402
start_redis 16403

echo "== start-up to ready, idle RSS"
start_ours startup-17 18410 19410 16403 java
printf '  %-34s %6s ms   %5s MiB\n' "ours, JDK 17" "$LAST_READY_MS" "$(idle_rss "$LAST_PID")"
stop "$LAST_PID"
if [ -x "$JDK25/bin/java" ]; then
  start_ours startup-25 18410 19410 16403 "$JDK25/bin/java"
  printf '  %-34s %6s ms   %5s MiB\n' "ours, JDK 25" "$LAST_READY_MS" "$(idle_rss "$LAST_PID")"
  stop "$LAST_PID"
  # Training run: the JVM writes the AOT cache when it exits, after start-up and some traffic.
  rm -f "$OUT/app.aot"
  start_ours aot-training 18410 19410 16403 "$JDK25/bin/java" -XX:AOTCacheOutput="$OUT/app.aot"
  seed http://127.0.0.1:18410 bench-training
  wrk -t1 -c4 -d5s -s src/bench/unique-orders.lua http://127.0.0.1:18410 -- bench-training training >/dev/null
  stop "$LAST_PID"
  if [ -f "$OUT/app.aot" ]; then
    start_ours startup-25-aot 18410 19410 16403 "$JDK25/bin/java" -XX:AOTCache="$OUT/app.aot"
    printf '  %-34s %6s ms   %5s MiB   (cache %s MiB)\n' "ours, JDK 25 + AOT cache" "$LAST_READY_MS" \
      "$(idle_rss "$LAST_PID")" "$(( $(stat -c %s "$OUT/app.aot") / 1048576 ))"
    stop "$LAST_PID"
  else
    echo "  JDK 25 AOT cache: not written (see $OUT/aot-training.log)"
  fi
fi
start_peer 18402 16402
printf '  %-34s %6s ms   %5s MiB\n' "peer (Spring Boot), JDK 17" "$LAST_READY_MS" "$(idle_rss "$LAST_PID")"
PEER_PID=$LAST_PID

OURS=http://127.0.0.1:18401
PEER=http://127.0.0.1:18402
OFF=http://127.0.0.1:18403
start_ours ours 18401 19401 16401 java
start_ours ours-off 18403 19403 16403 java -Dorders.idempotency.endpoints.place-order.enabled=false
seed "$OURS" bench
seed "$PEER" bench
seed "$OFF" bench
KEY="bench-replay-$RANDOM"
ORDER_ID=$(curl -sf -X POST "$OURS/api/v1/orders" -H 'Content-Type: application/json' -H "Idempotency-Key: $KEY" \
  -H "$AUTH" -d '{"customerId":"bench","items":[{"sku":"bench","quantity":1}],"currency":"EUR","paymentToken":"tok_ok"}' \
  | sed 's/.*"id":"\([^"]*\)".*/\1/')

echo "== warm-up"
wrk -t2 -c"$CONNECTIONS" -d"${WARMUP}s" -s src/bench/unique-orders.lua "$OURS" -- bench warm-ours >/dev/null
wrk -t2 -c"$CONNECTIONS" -d"${WARMUP}s" -s src/bench/unique-orders.lua "$PEER" -- bench warm-peer >/dev/null
wrk -t2 -c"$CONNECTIONS" -d"${WARMUP}s" -s src/bench/unique-orders.lua "$OFF" -- bench warm-off >/dev/null
wrk -t2 -c"$CONNECTIONS" -d"$(( WARMUP / 3 + 1 ))s" -s src/bench/replay-order.lua "$OURS" -- "$KEY" bench >/dev/null
wrk -t2 -c"$CONNECTIONS" -d"$(( WARMUP / 3 + 1 ))s" -H "$AUTH" "$OURS/api/v1/orders/$ORDER_ID" >/dev/null

ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
vs_peer=(); on_off=(); replay_read=()
for round in $(seq 1 "$ROUNDS"); do
  echo "== round $round"
  run_wrk "ours-post-$round" "$DURATION" -s src/bench/unique-orders.lua "$OURS" -- bench "r$round-ours"
  run_wrk "peer-post-$round" "$DURATION" -s src/bench/unique-orders.lua "$PEER" -- bench "r$round-peer"
  run_wrk "ours-off-post-$round" "$DURATION" -s src/bench/unique-orders.lua "$OFF" -- bench "r$round-off"
  run_wrk "ours-replay-$round" "$DURATION" -s src/bench/replay-order.lua "$OURS" -- "$KEY" bench
  run_wrk "ours-read-$round" "$DURATION" -H "$AUTH" "$OURS/api/v1/orders/$ORDER_ID"
  eval "o=\$RPS_ours_post_$round p=\$RPS_peer_post_$round f=\$RPS_ours_off_post_$round"
  eval "rp=\$RPS_ours_replay_$round rd=\$RPS_ours_read_$round"
  vs_peer+=("$(ratio "$o" "$p")"); on_off+=("$(ratio "$o" "$f")"); replay_read+=("$(ratio "$rp" "$rd")")
  echo "  ours/peer ${vs_peer[-1]}   idempotency on/off ${on_off[-1]}   replay/read ${replay_read[-1]}"
done
stop "$PEER_PID"

# p99 at the peer's throughput: ours paced (a pause before each request of each connection) to about the peer's
# median rate. wrk cannot hold an exact rate, so the achieved rate is printed beside it.
PEER_MEDIAN=$(median $(for r in $(seq 1 "$ROUNDS"); do eval "echo \$RPS_peer_post_$r"; done))
PEER_P99S=()
for r in $(seq 1 "$ROUNDS"); do eval "PEER_P99S+=(\$P99_peer_post_$r)"; done
PAUSE=$(awk -v c="$CONNECTIONS" -v rate="$PEER_MEDIAN" 'BEGIN {printf "%d", c * 1000 / rate}')
echo "== ours paced to the peer's median throughput ($PEER_MEDIAN req/s: a ${PAUSE} ms pause per connection)"
run_wrk ours-paced "$DURATION" -s src/bench/unique-orders.lua "$OURS" -- bench paced "$PAUSE"
echo "  peer p99 in its rounds: ${PEER_P99S[*]}; ours at about its throughput: $P99_ours_paced"

REPLAYED=$(curl -s http://127.0.0.1:19401/q/metrics \
  | awk '/^idempotency_requests_total\{.*outcome="replayed"/ {s += $2} END {print s + 0}')
echo "== result"
echo "  median ours/peer ${vs_peer[*]} -> $(median "${vs_peer[@]}")   (goal >= 1.5)"
echo "  median idempotency on/off ${on_off[*]} -> $(median "${on_off[@]}")   (goal >= 0.90)"
echo "  median replay/read ${replay_read[*]} -> $(median "${replay_read[@]}")   (goal >= 1.0)"
echo "  replays the service counted: $REPLAYED (the replay rounds only; unique-key rounds must add none)"
