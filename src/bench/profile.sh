#!/usr/bin/env bash
# Where the CPU goes per request: POST /api/v1/orders with unique keys (tokens verified, limits and idempotency on,
# telemetry exported over OTLP to a receiver that keeps nothing), profiled with async-profiler (from Maven
# Central) attached at launch, so that starting the profiler does not disturb the compiled code under load. The
# service is warmed up, then one profile window of the same load is summarised by src/bench/profile-summary.py
# (layers on the stack, hottest frames) and kept in collapsed form for a flame graph.
# Needs redis-server, wrk, curl and python3. Loopback only; every loop is bounded.
# With EVENT=alloc the profile is of the bytes allocated instead (async-profiler's allocation sampling, weighted by
# size), summarised as bytes per request, the allocating frames and our own frames that allocate most.
# With LOAD=read the load is a GET of one order instead (placed first): the platform's share of a request, its
# bearer token, REST layer, one Redis command and telemetry, without a body to read, validate or fingerprint.
# Usage: [EVENT=cpu|alloc] [LOAD=place|read] src/bench/profile.sh [application directory, default target/quarkus-app]
#        [warm-up seconds, default 120] [profiled seconds, default 30]
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
APP_DIR=${1:-target/quarkus-app}
WARMUP=${2:-120}
WINDOW=${3:-30}
EVENT=${EVENT:-cpu}
LOAD=${LOAD:-place}
case "$LOAD" in
  place) UNIT=placement ;;
  read) UNIT=read ;;
  *) echo "LOAD is place or read"; exit 1 ;;
esac
case "$EVENT" in
  cpu) SAMPLING="event=cpu,interval=2ms" ;;
  alloc) SAMPLING="event=alloc,total" ;;
  *) echo "EVENT is cpu or alloc"; exit 1 ;;
esac
CONNECTIONS=32
OUT=target/bench/profile
mkdir -p "$OUT"
# shellcheck source=src/bench/common.sh
source src/bench/common.sh
ensure_app "$APP_DIR"
fetch_async_profiler
mint_token

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
OTLP_PORT=14319
python3 src/bench/otlp-sink.py "$OTLP_PORT" > "$OUT/otlp-sink.log" 2>&1 &
pids+=($!)
redis-server --port 16421 --bind 127.0.0.1 --save "" --appendonly no --loglevel warning > "$OUT/redis.log" 2>&1 &
REDIS=$!
pids+=("$REDIS")
sleep 0.5
rm -f "$OUT"/window-*.collapsed
started=$(date +%s%N)
# One profile file per window of the load: the profiler starts a new one every WINDOW seconds.
(cd "$APP_DIR" && exec java -Xmx512m ${JAVA_EXTRA:-} \
  -agentpath:"$AGENT"=start,$SAMPLING,loop=${WINDOW}s,collapsed,file="$ROOT/$OUT/window-%n{99}.collapsed" \
  -Dquarkus.http.port=18421 -Dquarkus.http.host=127.0.0.1 -Dquarkus.management.port=19421 \
  -Dquarkus.management.host=127.0.0.1 \
  -Dquarkus.redis.hosts=redis://127.0.0.1:16421 -Dquarkus.oidc.public-key="$PUBLIC_KEY" \
  -Dquarkus.oidc.token.issuer="$ISSUER" -Dorders.limits.writes.unknown.quota=1000000000 \
  -Dorders.limits.reads.unknown.quota=1000000000 \
  -Dorders.limits.new-keys.unknown.quota=1000000000 -Dorders.limits.spend.unknown.amount=1000000000000000 \
  -Dquarkus.otel.exporter.otlp.protocol=http/protobuf -Dquarkus.otel.exporter.otlp.endpoint=http://127.0.0.1:$OTLP_PORT \
  -Dquarkus.log.level=WARN -jar quarkus-run.jar) > "$OUT/app.log" 2>&1 &
APP=$!
pids+=("$APP")
wait_http http://127.0.0.1:19421/q/health/ready "$started" >/dev/null
curl -sf -X PUT http://127.0.0.1:18421/api/v1/inventory/bench -H 'Content-Type: application/json' -H "$AUTH" \
  -d '{"available":1000000000,"unitPrice":100,"currency":"EUR"}' >/dev/null
load() { # name seconds
  if [ "$LOAD" = read ]; then
    run_wrk "$1" "$2" -s src/bench/read-order.lua "http://127.0.0.1:18421/api/v1/orders/$ORDER_ID"
  else
    run_wrk "$1" "$2" -s src/bench/unique-orders.lua http://127.0.0.1:18421 -- bench "$1"
  fi
}
if [ "$LOAD" = read ]; then
  ORDER_ID=$(place_one http://127.0.0.1:18421 bench "profile-read-$RANDOM")
fi
# The load runs through the warm-up, then through two more whole windows, measured apart (the CPU time per
# request of the JVM and of its redis-server); the last whole window is summarised.
load warm-up "$WARMUP"
# Redis counts its commands from here: the measured run's requests only.
redis-cli -p 16421 CONFIG RESETSTAT >/dev/null
CPU_PIDS="jvm=$APP redis=$REDIS" load profiled $(( 2 * WINDOW + 5 ))
redis-cli -p 16421 INFO commandstats | tr -d '\r' > "$OUT/commandstats.txt"
kill "$APP"; wait "$APP" 2>/dev/null || true
LAST=$(ls "$OUT"/window-*.collapsed | sort -V | tail -2 | head -1)
PROFILE=$OUT/orders-$LOAD-$EVENT.collapsed
cp "$LAST" "$PROFILE"
echo "== $EVENT profile of the ${WINDOW} s window ending at about $(( WARMUP + 2 * WINDOW )) s of load ($PROFILE)"
# Requests in the window: the measured load's mean rate times the window.
REQUESTS_IN_WINDOW=$(awk -v w="$WINDOW" '/Requests\/sec/ {printf "%.0f", $2 * w}' "$OUT/profiled.txt")
python3 src/bench/profile-summary.py "$PROFILE" 25 "$EVENT" "$REQUESTS_IN_WINDOW" "$UNIT"
# Where the Redis CPU of a request goes, from Redis's own counts over the measured run: each command's calls and
# microseconds per request (the scripts' commands run inside EVALSHA, whose time holds theirs and the Lua around
# them; a placement sends no command outside its two scripts, so any other command of the run counts among theirs);
# the rest of the process's CPU is the sockets, the protocol and Redis's background work (Redis times its commands by
# the clock and /proc gives CPU time, so that split is approximate).
REQUESTS=$(awk '/requests in/ {print $1}' "$OUT/profiled.txt")
[ -n "$REQUESTS" ] && [ "$REQUESTS" -gt 0 ] || { echo "no request count in $OUT/profiled.txt"; exit 1; }
awk -F'[:=,]' -v n="$REQUESTS" -v cpu="${CPU_profiled_redis:-0}" -v unit="$UNIT" '
  /^cmdstat_/ && $1 !~ /config/ {
    name = substr($1, 9); calls = $3 / n; us = $5 / n
    if (name ~ /^eval/) { scripts += us; scriptCalls += calls } else { inner += us; commands += calls }
    line[name] = sprintf("    %-10s %5.2f calls %6.1f us", name, calls, us)
  }
  END {
    print "== Redis per " unit " (INFO commandstats over the measured run, " n " " unit "s)"
    for (k in line) print line[k] | "sort -k4 -n -r"
    close("sort -k4 -n -r")
    printf "  %.1f scripts (%.1f us inside them), of which their %.1f commands %.1f us and the Lua around them %.1f us;" \
      " the process %s us a %s, so %.1f us besides them (sockets, protocol, background work)\n", scriptCalls, scripts,
      commands, inner, scripts - inner, cpu, unit, cpu - scripts
  }' "$OUT/commandstats.txt"
