#!/usr/bin/env bash
# Side by side, on loopback only: this service against the Spring Boot peer with an idempotency library
# (../shared/peers/spring-idempotent), both verifying the same bearer tokens, each on its own redis-server.
#   1. start-up to ready, idle RSS and time to peak: ours on JDK 17 (java -jar with the AppCDS archive of a training
#      start, src/main/docker/train-archive.sh, as the README runs it in production), on JDK 25, on JDK 25 with the
#      AOT cache that the container image trains the same way (src/main/docker/Dockerfile.jvm, -XX:AOTMode=on so
#      that an unusable cache fails);
#      then start-up to ready alone, three rounds alternated with the peer on JDK 17 (ours java -jar on JDK 17,
#      ours as the image starts it), medians and ratios to the peer last;
#   2. a fair warm-up: every service under the same load, one 10 s window after another, for at least
#      MIN_WARMUP seconds and then until three successive windows are within 5 % of each other (at most
#      MAX_WARMUP seconds); every window printed, and the time to peak (the first window within 5 % of the
#      plateau) reported beside it;
#   3. alternated rounds: POST /api/v1/orders with unique keys (ours, the peer, ours with place-order
#      idempotency off), replay of one key and GET of its order (ours); every round printed, medians and
#      ratios last, and the CPU time per request of each service's JVM and of its redis-server (and per placement,
#      JVM and Redis together, ours over the peer's); p99 of ours paced
#      to the peer's median rate;
#   4. the Redis-side limit: redis-benchmark against the gate's two scripts of a placement (claim, then the
#      placing script with its commit) on an idle Redis, and ours as a fraction of it; Redis's CPU per call of each,
#      sent one at a time per connection and pipelined 4 deep.
# Needs redis-server, wrk, curl and python3 (Debian: apt-get install -y redis-server wrk curl). Every loop is bounded.
# Usage: src/bench/compare.sh [rounds, default 5] [seconds per round, default 10] [least warm-up seconds, default 120]
#        [connections, default 32]; PEER_SRC overrides where the peer's sources are, JDK25 where JDK 25 is,
#        MAX_WARMUP the longest warm-up per service in seconds (default 300), RAMP_MAX the longest ramp measured
#        after each start-up variant (default 120).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
ROUNDS=${1:-5}
DURATION=${2:-10}
WARMUP=${3:-120}
MAX_WARMUP=${MAX_WARMUP:-300}
RAMP_MAX=${RAMP_MAX:-120}
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

# Telemetry as deployed: every request traced (the configured sampler) and exported over OTLP, here to a receiver
# that keeps nothing (src/bench/otlp-sink.py), and metrics scraped by nobody but kept as always.
OTLP_PORT=14318
python3 src/bench/otlp-sink.py "$OTLP_PORT" > "$OUT/otlp-sink.log" 2>&1 &
OTLP_PID=$!
pids+=("$OTLP_PID")

start_redis() { # port
  redis-server --port "$1" --bind 127.0.0.1 --save "" --appendonly no --daemonize no --loglevel warning \
    > "$OUT/redis-$1.log" 2>&1 &
  pids+=($!)
  eval "REDIS_PID_$1=$!"
  for _ in $(seq 1 50); do redis-cli -p "$1" ping >/dev/null 2>&1 && return 0; sleep 0.1; done
  echo "redis on $1 did not start"; exit 1
}

# Ours as deployed: tokens verified, limits on with quotas too high to refuse a benchmark.
start_ours() { # name http-port management-port redis-port java [extra options...]
  local name=$1 http=$2 management=$3 redis=$4 java=$5; shift 5
  local started; started=$(date +%s%N) dir=${APP_DIR:-target/quarkus-app}
  (cd "$dir" && exec "$java" -Xmx512m "$@" -Dquarkus.http.port="$http" -Dquarkus.http.host=127.0.0.1 \
    -Dquarkus.management.port="$management" -Dquarkus.management.host=127.0.0.1 \
    -Dquarkus.redis.hosts="redis://127.0.0.1:$redis" \
    -Dquarkus.oidc.public-key="$PUBLIC_KEY" -Dquarkus.oidc.token.issuer="$ISSUER" \
    -Dorders.limits.reads.unknown.quota=1000000000 -Dorders.limits.writes.unknown.quota=1000000000 \
    -Dorders.limits.new-keys.unknown.quota=1000000000 -Dorders.limits.spend.unknown.amount=1000000000000000 \
    -Dquarkus.otel.exporter.otlp.protocol=http/protobuf \
    -Dquarkus.otel.exporter.otlp.endpoint=http://127.0.0.1:$OTLP_PORT -Dquarkus.log.level=WARN \
    -jar quarkus-run.jar) > "$OUT/$name.log" 2>&1 &
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

# One 10 s window after another under the load of the rounds, until the service is on its plateau (bounded).
# Prints every window; sets PLATEAU_<name> (mean of the last three) and PEAK_S_<name> (seconds until the first
# window within 5 % of it).
plateau() { # name, wrk args...
  local name=$1; shift
  local windows=() elapsed=0 n
  while :; do
    wrk -t2 -c"$CONNECTIONS" -d10s "$@" > "$OUT/warm-$name.txt"
    windows+=("$(awk '/Requests\/sec/ {print $2}' "$OUT/warm-$name.txt")")
    elapsed=$(( elapsed + 10 ))
    n=${#windows[@]}
    if [ "$elapsed" -ge "${MIN_S:-$WARMUP}" ] && [ "$n" -ge 3 ] && awk -v a="${windows[n-3]}" -v b="${windows[n-2]}" \
        -v c="${windows[n-1]}" 'BEGIN {lo = a; hi = a; if (b < lo) lo = b; if (c < lo) lo = c; if (b > hi) hi = b;
        if (c > hi) hi = c; exit !(hi <= lo * 1.05)}'; then
      break
    fi
    if [ "$elapsed" -ge "${MAX_S:-$MAX_WARMUP}" ]; then
      echo "  $name: no plateau within ${MAX_S:-$MAX_WARMUP}s (last three windows differ by more than 5 %)"
      break
    fi
  done
  local mean peak=0 i
  mean=$(awk -v a="${windows[n-3]}" -v b="${windows[n-2]}" -v c="${windows[n-1]}" 'BEGIN {printf "%.0f", (a+b+c)/3}')
  for i in "${!windows[@]}"; do
    if awk -v w="${windows[$i]}" -v m="$mean" 'BEGIN {exit !(w >= m * 0.95)}'; then peak=$(( (i + 1) * 10 )); break; fi
  done
  printf '  %-10s windows (req/s): %s\n' "$name" "${windows[*]}"
  printf '  %-10s plateau %s req/s after %s s; time to peak %s s\n' "$name" "$mean" "$elapsed" "$peak"
  eval "PLATEAU_${name//-/_}=$mean"
  eval "PEAK_S_${name//-/_}=$peak"
}

echo "== start-up to ready, idle RSS, then time to peak from the start (windows until three are within 5 %, at most ${RAMP_MAX}s)"
# Each variant in turn on the same Redis: ready, idle RSS, then its ramp under the load of the rounds.
startup_variant() { # label name java [extra options...]
  local label=$1 name=$2 java=$3; shift 3
  start_ours "$name" 18410 19410 16403 "$java" "$@"
  local ready=$LAST_READY_MS rss; rss=$(idle_rss "$LAST_PID")
  seed http://127.0.0.1:18410 "bench-$name"
  MIN_S=0 MAX_S=$RAMP_MAX plateau "$name" -s src/bench/unique-orders.lua http://127.0.0.1:18410 -- "bench-$name" "ramp-$name"
  eval "local peak=\$PEAK_S_${name//-/_} top=\$PLATEAU_${name//-/_}"
  STARTUP_LINES+=("$(printf '  %-34s ready %6s ms   idle %4s MiB   peak %5s req/s after %3s s' "$label" "$ready" "$rss" "$top" "$peak")")
  stop "$LAST_PID"
}
# java -jar on JDK 17 as the README's production command runs it: with the AppCDS archive a training start wrote
# where it runs (src/main/docker/train-archive.sh on a copy of the application, with this JDK 17; an archive is only
# valid for the JDK and the class path that wrote it, so it is never copied: it is generated where it runs).
rm -rf "$OUT/cds-app" && cp -r target/quarkus-app "$OUT/cds-app"
CDS_17=()
if src/main/docker/train-archive.sh "$OUT/cds-app" java > "$OUT/cds-training.log" 2>&1; then
  CDS_17=(-XX:SharedArchiveFile=app-cds.jsa)
else
  echo "  the AppCDS training start failed (see $OUT/cds-training.log): JDK 17 runs without an archive"
fi
STARTUP_LINES=()
APP_DIR=$OUT/cds-app startup_variant "ours, JDK 17 + AppCDS" startup-17 java "${CDS_17[@]}"
if [ -x "$JDK25/bin/java" ]; then
  startup_variant "ours, JDK 25" startup-25 "$JDK25/bin/java"
  # The AOT cache as the container image makes it (src/main/docker/Dockerfile.jvm): the same training start, on a
  # copy of the application, with the JDK that will run it.
  rm -rf "$OUT/aot-app" && cp -r target/quarkus-app "$OUT/aot-app"
  rm -f "$OUT/aot-app/app-cds.jsa"
  src/main/docker/train-archive.sh "$OUT/aot-app" "$JDK25/bin/java" > "$OUT/aot-training.log" 2>&1 \
    || echo "  the AOT training start failed (see $OUT/aot-training.log)"
  if [ -f "$OUT/aot-app/app.aot" ]; then
    APP_DIR=$OUT/aot-app startup_variant "ours, JDK 25 + AOT cache ($(( $(stat -c %s "$OUT/aot-app/app.aot") / 1048576 )) MiB)" \
      startup-25-aot "$JDK25/bin/java" -XX:AOTMode=on -XX:AOTCache=app.aot
  fi
fi
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

# Start-up to ready, alternated on the otherwise idle machine, three rounds: ours with java -jar on JDK 17, ours
# with the container image's command (JDK 25 with the AOT cache the image trains), the peer; medians last.
echo "== start-up to ready, alternated: ours java -jar JDK 17 with AppCDS, ours as the image starts it, the peer (3 rounds)"
READY_17=(); READY_IMAGE=(); READY_PEER=()
for r in 1 2 3; do
  APP_DIR=$OUT/cds-app start_ours "ready-17-$r" 18410 19410 16403 java "${CDS_17[@]}"
  READY_17+=("$LAST_READY_MS"); stop "$LAST_PID"
  if [ -f "$OUT/aot-app/app.aot" ]; then
    APP_DIR=$OUT/aot-app start_ours "ready-image-$r" 18410 19410 16403 "$JDK25/bin/java" -XX:AOTMode=on \
      -XX:AOTCache=app.aot
    READY_IMAGE+=("$LAST_READY_MS"); stop "$LAST_PID"
  fi
  start_peer 18402 16402
  READY_PEER+=("$LAST_READY_MS"); stop "$LAST_PID"
  echo "  round $r: ours JDK 17 ${READY_17[-1]} ms   ours image ${READY_IMAGE[-1]:-none} ms   peer ${READY_PEER[-1]} ms"
done

# The ramps placed orders on the Redis that ours with idempotency off uses next: it starts as empty as the others.
redis-cli -p 16403 FLUSHALL >/dev/null
start_peer 18402 16402
STARTUP_LINES+=("$(printf '  %-34s ready %6s ms   idle %4s MiB   peak: its warm-up below' "peer (Spring Boot), JDK 17" \
  "$LAST_READY_MS" "$(idle_rss "$LAST_PID")")")
printf '%s\n' "${STARTUP_LINES[-1]}"
PEER_PID=$LAST_PID

OURS=http://127.0.0.1:18401
PEER=http://127.0.0.1:18402
OFF=http://127.0.0.1:18403
APP_DIR=$OUT/cds-app start_ours ours 18401 19401 16401 java "${CDS_17[@]}"
OURS_PID=$LAST_PID
APP_DIR=$OUT/cds-app start_ours ours-off 18403 19403 16403 java "${CDS_17[@]}" -Dorders.idempotency.endpoints.place-order.enabled=false
OFF_PID=$LAST_PID
seed "$OURS" bench
seed "$PEER" bench
seed "$OFF" bench
KEY="bench-replay-$RANDOM"
ORDER_ID=$(place_one "$OURS" bench "$KEY")


echo "== warm-up: at least ${WARMUP}s each, then until three 10 s windows are within 5 % (at most ${MAX_WARMUP}s)"
plateau ours -s src/bench/unique-orders.lua "$OURS" -- bench warm-ours
plateau peer -s src/bench/unique-orders.lua "$PEER" -- bench warm-peer
plateau ours-off -s src/bench/unique-orders.lua "$OFF" -- bench warm-off
plateau replay -s src/bench/replay-order.lua "$OURS" -- "$KEY" bench
plateau read -s src/bench/read-order.lua "$OURS/api/v1/orders/$ORDER_ID"

vs_peer=(); on_off=(); replay_read=(); cpu_vs_peer=()
for round in $(seq 1 "$ROUNDS"); do
  echo "== round $round"
  # Each run also prints the CPU time per request of the service's JVM and of its own redis-server.
  # The trace sink's CPU is printed beside ours: only ours exports traces, and the sink shares the cores.
  CPU_PIDS="jvm=$OURS_PID redis=$REDIS_PID_16401 sink=$OTLP_PID" \
    run_wrk "ours-post-$round" "$DURATION" -s src/bench/unique-orders.lua "$OURS" -- bench "r$round-ours"
  CPU_PIDS="jvm=$PEER_PID redis=$REDIS_PID_16402" \
    run_wrk "peer-post-$round" "$DURATION" -s src/bench/unique-orders.lua "$PEER" -- bench "r$round-peer"
  CPU_PIDS="jvm=$OFF_PID redis=$REDIS_PID_16403" \
    run_wrk "ours-off-post-$round" "$DURATION" -s src/bench/unique-orders.lua "$OFF" -- bench "r$round-off"
  CPU_PIDS="jvm=$OURS_PID redis=$REDIS_PID_16401" \
    run_wrk "ours-replay-$round" "$DURATION" -s src/bench/replay-order.lua "$OURS" -- "$KEY" bench
  CPU_PIDS="jvm=$OURS_PID redis=$REDIS_PID_16401" run_wrk "ours-read-$round" "$DURATION" -s src/bench/read-order.lua \
    "$OURS/api/v1/orders/$ORDER_ID"
  eval "o=\$RPS_ours_post_$round p=\$RPS_peer_post_$round f=\$RPS_ours_off_post_$round"
  eval "rp=\$RPS_ours_replay_$round rd=\$RPS_ours_read_$round"
  vs_peer+=("$(ratio "$o" "$p")"); on_off+=("$(ratio "$o" "$f")"); replay_read+=("$(ratio "$rp" "$rd")")
  eval "oc=\$(( CPU_ours_post_${round}_jvm + CPU_ours_post_${round}_redis ))"
  eval "pc=\$(( CPU_peer_post_${round}_jvm + CPU_peer_post_${round}_redis ))"
  cpu_vs_peer+=("$(ratio "$oc" "$pc")")
  echo "  ours/peer ${vs_peer[-1]}   idempotency on/off ${on_off[-1]}   replay/read ${replay_read[-1]}   CPU per" \
    "placement (JVM + Redis) ours ${oc} us, peer ${pc} us: ${cpu_vs_peer[-1]}"
done
stop "$PEER_PID"

# p99 at the peer's throughput: ours paced (a pause before each request of each connection) to about the peer's
# median rate. wrk cannot hold an exact rate, so the achieved rate is printed beside it.
PEER_MEDIAN=$(median $(for r in $(seq 1 "$ROUNDS"); do eval "echo \$RPS_peer_post_$r"; done))
PEER_P99S=()
for r in $(seq 1 "$ROUNDS"); do eval "PEER_P99S+=(\$P99_peer_post_$r)"; done
# A pause of C/rate per connection ignores the time each request takes; one calibration run measures the mean
# latency at that pace, and the measured run pauses C/rate minus it.
PAUSE=$(awk -v c="$CONNECTIONS" -v rate="$PEER_MEDIAN" 'BEGIN {printf "%.0f", c * 1000 / rate}')
run_wrk ours-paced-calibration "$DURATION" -s src/bench/unique-orders.lua "$OURS" -- bench calibrate "$PAUSE" >/dev/null
MEAN_MS=$(awk '$1 == "Latency" {v = $2; if (v ~ /us$/) {sub(/us$/, "", v); v /= 1000} else if (v ~ /ms$/) {sub(/ms$/, "", v)}
  else if (v ~ /s$/) {sub(/s$/, "", v); v *= 1000}; print v; exit}' "$OUT/ours-paced-calibration.txt")
PAUSE=$(awk -v c="$CONNECTIONS" -v rate="$PEER_MEDIAN" -v l="$MEAN_MS" 'BEGIN {p = c * 1000 / rate - l; if (p < 0) p = 0;
  printf "%.0f", p}')
echo "== ours paced to the peer's median throughput ($PEER_MEDIAN req/s: a ${PAUSE} ms pause per connection, after a"
echo "   calibration run at ${MEAN_MS} ms mean latency)"
CPU_PIDS="jvm=$OURS_PID redis=$REDIS_PID_16401" \
  run_wrk ours-paced "$DURATION" -s src/bench/unique-orders.lua "$OURS" -- bench paced "$PAUSE"
echo "  peer p99 in its rounds: ${PEER_P99S[*]}; ours at about its throughput: $P99_ours_paced"

REPLAYED=$(curl -s http://127.0.0.1:19401/q/metrics \
  | awk '/^idempotency_requests_total\{.*outcome="replayed"/ {s += $2} END {print s + 0}')
# The Redis-side limit of a placement: the gate's claim script and the placing script with its commit, each run by
# redis-benchmark against an idle Redis with fresh keys. The placing script is preceded by one SET that plants
# the pending record the claim would have left (src/bench/ScriptSource.java), so its commit finds its claim and the
# whole placement runs (one call more than a real placement). The oldest entry of both order indexes names an order
# that exists, as in a service whose orders are within their retention, so each placement looks at it and prunes
# nothing.
echo "== Redis-side limit of one placement (redis-benchmark -c$CONNECTIONS, unique keys)"
start_redis 16404
BENCH_CP="target/quarkus-app/app/*:target/quarkus-app/lib/main/*"
CLAIM_SHA=$(redis-cli -p 16404 SCRIPT LOAD "$(java -cp "$BENCH_CP" src/bench/ScriptSource.java claim)")
PLACE_SHA=$(redis-cli -p 16404 SCRIPT LOAD "$(java -cp "$BENCH_CP" src/bench/ScriptSource.java place)")
# Each script is run on a fresh keyspace, one call at a time per connection (as the service's pooled connections
# send them) and then pipelined 4 deep (as a client multiplexing callers on one connection sends them), with the
# Redis process's CPU time per call beside the rate: what is left of a placement's Redis CPU past the scripts'
# own work is the round trips' system calls, and the pipelined figures show what fewer of them would buy.
script_bench() { # claim|place pipeline-depth: prints "<calls/s> <Redis CPU us per call>"
  redis-cli -p 16404 FLUSHALL >/dev/null
  redis-cli -p 16404 HSET 'inv:{t:bench}:bench' available 1000000000 unitPrice 100 currency EUR version 1 >/dev/null
  # The oldest entry of both indexes names an order that exists, as in a service whose orders are within their
  # retention: each placement looks at it and prunes nothing (the order id is the last part of its record's key).
  redis-cli -p 16404 SET 'order:{t:bench}:000000000000' '{}' >/dev/null
  redis-cli -p 16404 ZADD 'orders:{t:bench}:all' 0 000000000000 >/dev/null
  redis-cli -p 16404 ZADD 'orders:{t:bench}:customer:bench' 0 000000000000 >/dev/null
  local before rps after
  before=$(cpu_ticks "$REDIS_PID_16404")
  if [ "$1" = claim ]; then
    rps=$(redis-benchmark -p 16404 -c "$CONNECTIONS" -P "$2" -n 200000 -r 1000000000 --csv EVALSHA "$CLAIM_SHA" 4 \
      'idem:{t:bench}:__rand_int__' 'nk:{t:bench}:p' 'rl:{t:bench}:writes:p' 'idem:{t:bench}:__rand_int__:gone:owner' \
      "P owner fp" 30000 1000000000 3600000 1000000000 60000 | awk -F',' 'NR == 2 {v = $(NF - 6); gsub(/"/, "", v); print v}')
  else
    rps=$(redis-benchmark -p 16404 -c "$CONNECTIONS" -P "$2" -n 200000 -r 1000000000 --csv EVALSHA "$PLACE_SHA" 10 \
      'idem:{t:bench}:__rand_int__' 'order:{t:bench}:__rand_int__' 'ledger:{t:bench}:__rand_int__' \
      'orders:{t:bench}:all' 'orders:{t:bench}:customer:bench' 'seq:{t:bench}:orders' 'opkey:{t:bench}:__rand_int__' \
      'cref:{t:bench}:-' 'spend:{t:bench}:-' 'inv:{t:bench}:bench' \
      1 7 "P owner fp" 600000 created "D fp 201 application/json /api/v1/orders/" existing \
      "D fp 200 application/json /api/v1/orders/" 3 \
      '__rand_int__' EUR '' digest '' '' 0 7776000000 \
      '{"id":"ord___rand_int__","status":"CONFIRMED","customerId":"bench","items":[' \
      ',"currency":"EUR","paymentId":"pay_bench","clientReference":null,"createdAt":"2026-12-01T00:00:00Z"}' \
      '{"id":"led_bench","orderId":"ord___rand_int__","type":"CHARGE","currency":"EUR","createdAt":"2026-12-01T00:00:00Z","amount":' \
      1 '{"sku":"bench","quantity":1,"unitPrice":' \
      | awk -F',' 'NR == 2 {v = $(NF - 6); gsub(/"/, "", v); print v}')
  fi
  after=$(cpu_ticks "$REDIS_PID_16404")
  awk -v r="$rps" -v t="$(( after - before ))" -v hz="$(getconf CLK_TCK)" 'BEGIN {printf "%s %.0f", r, t * 1e6 / hz / 200000}'
}
read -r CLAIM_RPS CLAIM_US <<< "$(script_bench claim 1)"
read -r PLACE_RPS PLACE_US <<< "$(script_bench place 1)"
read -r _ CLAIM_US_P4 <<< "$(script_bench claim 4)"
read -r _ PLACE_US_P4 <<< "$(script_bench place 4)"
LIMIT=$(awk -v a="$CLAIM_RPS" -v b="$PLACE_RPS" 'BEGIN {printf "%.0f", 1 / (1 / a + 1 / b)}')
echo "  claim script $CLAIM_RPS/s (Redis CPU $CLAIM_US us a call), placing script $PLACE_RPS/s ($PLACE_US us):" \
  "one placement (both) $LIMIT/s, $(( CLAIM_US + PLACE_US )) us of Redis CPU"
echo "  pipelined 4 deep: claim $CLAIM_US_P4 us, placing $PLACE_US_P4 us, one placement $(( CLAIM_US_P4 + PLACE_US_P4 )) us" \
  "of Redis CPU"

echo "== result"
printf '%s\n' "${STARTUP_LINES[@]}"
if [ ${#INVALID_RUNS[@]} -gt 0 ]; then
  echo "  runs with non-2xx answers or socket errors (their rate counts them): ${INVALID_RUNS[*]}"
else
  echo "  every measured run answered every request 2xx"
fi
echo "  plateaus: ours $PLATEAU_ours, peer $PLATEAU_peer, ours idempotency off $PLATEAU_ours_off req/s; time to peak: ours ${PEAK_S_ours}s, peer ${PEAK_S_peer}s"
echo "  median ours/peer ${vs_peer[*]} -> $(median "${vs_peer[@]}")   (goal >= 1.15)"
echo "  median CPU per placement ours/peer (JVM + Redis) ${cpu_vs_peer[*]} -> $(median "${cpu_vs_peer[@]}")   (goal <= 0.85)"
echo "  median idempotency on/off ${on_off[*]} -> $(median "${on_off[@]}")   (goal >= 0.90)"
echo "  median replay/read ${replay_read[*]} -> $(median "${replay_read[@]}")   (goal >= 1.0)"
PEER_READY=$(median "${READY_PEER[@]}")
echo "  start-up to ready, median of 3 alternated: peer $PEER_READY ms; ours java -jar JDK 17 $(median "${READY_17[@]}") ms" \
  "-> $(ratio "$(median "${READY_17[@]}")" "$PEER_READY") of the peer (goal <= 0.55)"
if [ ${#READY_IMAGE[@]} -gt 0 ]; then
  echo "  ours with the image's command (JDK 25 + AOT cache) $(median "${READY_IMAGE[@]}") ms ->" \
    "$(ratio "$(median "${READY_IMAGE[@]}")" "$PEER_READY") of the peer (goal <= 0.45)"
fi
OURS_MEDIAN=$(median $(for r in $(seq 1 "$ROUNDS"); do eval "echo \$RPS_ours_post_$r"; done))
echo "  ours as a fraction of the Redis-side limit: $(ratio "$OURS_MEDIAN" "$LIMIT")   (goal >= 0.25)"
kill "$OTLP_PID" 2>/dev/null && wait "$OTLP_PID" 2>/dev/null || true
echo "  telemetry exported by the services under test: $(cat "$OUT/otlp-sink.log")"
echo "  replays the service counted: $REPLAYED (the replay rounds only; unique-key rounds must add none)"
