#!/usr/bin/env bash
# Profiles POST /api/v1/orders (unique keys, idempotency and limits on) with JDK Flight Recorder, on loopback:
# warm-up, then a recording under load, then the hottest methods and the CPU samples by package.
# Needs redis-server, wrk, curl and a JDK 21+ `jfr` tool for the views (JDK25, default the Temurin 25 here).
# Usage: src/bench/profile.sh [application directory, default target/quarkus-app] [seconds, default 20]
set -euo pipefail
cd "$(dirname "$0")/../.."
APP_DIR=${1:-target/quarkus-app}
SECONDS_RECORDED=${2:-20}
JDK25=${JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64}
CONNECTIONS=32
OUT=target/bench/profile
mkdir -p "$OUT"
# shellcheck source=src/bench/common.sh
source src/bench/common.sh
[ -f "$APP_DIR/quarkus-run.jar" ] || ./mvnw -B -q compile quarkus:build
mint_token

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
# Telemetry as deployed: traces exported over OTLP to a receiver that keeps nothing.
OTLP_PORT=14319
python3 src/bench/otlp-sink.py "$OTLP_PORT" > "$OUT/otlp-sink.log" 2>&1 &
pids+=($!)
redis-server --port 16421 --bind 127.0.0.1 --save "" --appendonly no --loglevel warning > "$OUT/redis.log" 2>&1 &
pids+=($!)
sleep 0.5
started=$(date +%s%N)
java -Xmx512m -Dquarkus.http.port=18421 -Dquarkus.http.host=127.0.0.1 -Dquarkus.management.port=19421 \
  -Dquarkus.redis.hosts=redis://127.0.0.1:16421 -Dquarkus.oidc.public-key="$PUBLIC_KEY" \
  -Dquarkus.oidc.token.issuer="$ISSUER" -Dorders.limits.writes.unknown.quota=1000000000 \
  -Dorders.limits.new-keys.unknown.quota=1000000000 -Dorders.limits.spend.unknown.amount=1000000000000000 \
  -Dquarkus.otel.exporter.otlp.protocol=http/protobuf \
    -Dquarkus.otel.exporter.otlp.endpoint=http://127.0.0.1:$OTLP_PORT -Dquarkus.log.level=WARN -jar "$APP_DIR/quarkus-run.jar" > "$OUT/app.log" 2>&1 &
APP=$!
pids+=("$APP")
wait_http http://127.0.0.1:19421/q/health/ready "$started" >/dev/null
curl -sf -X PUT http://127.0.0.1:18421/api/v1/inventory/bench -H 'Content-Type: application/json' -H "$AUTH" \
  -d '{"available":1000000000,"unitPrice":100,"currency":"EUR"}' >/dev/null
wrk -t2 -c$CONNECTIONS -d20s -s src/bench/unique-orders.lua http://127.0.0.1:18421 -- bench warm >/dev/null
jcmd "$APP" JFR.start name=bench settings=profile filename="$(pwd)/$OUT/orders.jfr" >/dev/null
run_wrk profiled "$SECONDS_RECORDED" -s src/bench/unique-orders.lua http://127.0.0.1:18421 -- bench profiled
jcmd "$APP" JFR.stop name=bench >/dev/null
echo "== hottest methods (top frame of each CPU sample)"
"$JDK25/bin/jfr" view --width 150 hot-methods "$OUT/orders.jfr" | head -30
echo "== CPU samples by package of the top frame"
"$JDK25/bin/jfr" print --events jdk.ExecutionSample --stack-depth 1 "$OUT/orders.jfr" \
  | awk '/stackTrace = \[/ {getline; sub(/^[ \t]+/, ""); split($0, parts, "("); n = split(parts[1], q, ".");
         pkg = q[1]; for (i = 2; i <= n - 2 && i <= 4; i++) pkg = pkg "." q[i]; count[pkg]++; total++}
         END {for (p in count) printf "%6.1f %%  %s\n", 100 * count[p] / total, p}' | sort -rn | head -15
echo "== CPU samples with a frame of ... anywhere on the stack (inclusive; a sample can count for several)"
"$JDK25/bin/jfr" print --events jdk.ExecutionSample --stack-depth 96 "$OUT/orders.jfr" \
  | awk 'function flush() { if (inside) { total++; for (k in seen) count[k]++ } delete seen; inside = 0 }
         /jdk.ExecutionSample/ { flush(); inside = 1 }
         /io\.ghostguard\.idempotency\./ { seen["idempotency edge (io.ghostguard.idempotency)"] = 1 }
         /io\.ghostguard\.limits\./ { seen["limits (io.ghostguard.limits)"] = 1 }
         /io\.vertx\.redis\./ { seen["Redis client (io.vertx.redis)"] = 1 }
         /org\.jose4j\.|io\.smallrye\.jwt\.|io\.quarkus\.oidc\./ { seen["bearer token verification"] = 1 }
         /com\.fasterxml\.jackson\./ { seen["JSON (jackson)"] = 1 }
         /io\.micrometer\.|io\.opentelemetry\./ { seen["metrics and tracing"] = 1 }
         /org\.jboss\.resteasy\.reactive\./ { seen["REST layer (resteasy reactive)"] = 1 }
         END { flush(); for (k in count) printf "%6.1f %%  %s\n", 100 * count[k] / total, k }' | sort -rn
