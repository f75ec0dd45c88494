#!/usr/bin/env bash
# The storm harness (docs/load.md), on loopback only: the packaged service as deployed (bearer tokens
# signed with a key pair made for this run, limits on with quotas roomy enough not to hide the overload, telemetry
# exported to a sink that keeps nothing) on its own redis-server, then src/bench/Storm.java against it: a closed-loop
# ramp that measures the plateau (unless one is given), a steady phase at it, storms at 2x and 4x, a recovery phase,
# and the checks (nothing placed twice; Redis holds one order per intent answered 2xx).
# Needs redis-server, redis-cli, curl, openssl, python3 and the JDK (17+). Every loop is bounded.
# Usage: src/bench/storm.sh [seconds per phase, default 15] [plateau in orders/s, default: measured] [Storm options...]
#   SERVICE_OPTS adds JVM options to the service (for example -Dorders.admission.fairness.enabled=false);
#   APP_DIR runs another packaged build (a directory holding quarkus-run.jar; default target/quarkus-app, built when
#   missing), for example the build before a change; LABEL names the run in the output directory
#   (target/bench/storm/<label>).
# The flood scenario (one runaway principal, docs/load.md): src/bench/storm.sh 15 0 --scenario=flood
#   [--flood-connections=1500 --polite=20 --polite-interval-ms=500 --calm=15 --flood=30 --timeout-ms=1000].
set -euo pipefail
cd "$(dirname "$0")/../.."
PHASE=${1:-15}
PLATEAU=${2:-0}
shift $(( $# > 2 ? 2 : $# ))
LABEL=${LABEL:-run}
OUT=target/bench/storm/$LABEL
mkdir -p "$OUT"
# shellcheck source=src/bench/common.sh
source src/bench/common.sh

for tool in redis-server redis-cli curl openssl python3 java; do
  command -v "$tool" >/dev/null || { echo "$tool is required"; exit 1; }
done
if [ -n "${APP_DIR:-}" ]; then
  APP_DIR=$(cd "$APP_DIR" && pwd)
  [ -f "$APP_DIR/quarkus-run.jar" ] || { echo "no quarkus-run.jar in $APP_DIR"; exit 1; }
else
  ensure_app target/quarkus-app
  APP_DIR=$(pwd)/target/quarkus-app
fi
mint_token

# Ports on loopback; override (PORT_BASE=16500 uses 16500..16503) to run beside another run.
PORT_BASE=${PORT_BASE:-}
REDIS_PORT=${PORT_BASE:-16421}
HTTP_PORT=${PORT_BASE:+$(( PORT_BASE + 1 ))}; HTTP_PORT=${HTTP_PORT:-18421}
MANAGEMENT_PORT=${PORT_BASE:+$(( PORT_BASE + 2 ))}; MANAGEMENT_PORT=${MANAGEMENT_PORT:-19421}
OTLP_PORT=${PORT_BASE:+$(( PORT_BASE + 3 ))}; OTLP_PORT=${OTLP_PORT:-14321}
pids=()
# Stops what this script started, by pid: TERM, then KILL for what has not ended within 10 s (a wedged service).
any_alive() { local p; for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && return 0; done; return 1; }
cleanup() {
  local p
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for _ in $(seq 1 100); do any_alive || return 0; sleep 0.1; done
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
}
trap cleanup EXIT
trap 'exit 143' TERM INT

python3 src/bench/otlp-sink.py "$OTLP_PORT" > "$OUT/otlp-sink.log" 2>&1 &
pids+=($!)
redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save "" --appendonly no --daemonize no --loglevel warning \
  > "$OUT/redis.log" 2>&1 &
REDIS_PID=$!
pids+=("$REDIS_PID")
for _ in $(seq 1 50); do redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && break; sleep 0.1; done

# Configured through the environment, as the ConfigMap configures a pod; quotas per caller type far above what one
# of the storm's principals sends, spend caps likewise.
started=$(date +%s%N)
(cd "$APP_DIR" && exec env \
  QUARKUS_HTTP_HOST=127.0.0.1 QUARKUS_HTTP_PORT=$HTTP_PORT \
  QUARKUS_MANAGEMENT_HOST=127.0.0.1 QUARKUS_MANAGEMENT_PORT=$MANAGEMENT_PORT \
  QUARKUS_REDIS_HOSTS=redis://127.0.0.1:$REDIS_PORT \
  QUARKUS_OIDC_PUBLIC_KEY="$PUBLIC_KEY" QUARKUS_OIDC_TOKEN_ISSUER="$ISSUER" \
  QUARKUS_OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf QUARKUS_OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:$OTLP_PORT \
  QUARKUS_LOG_LEVEL=WARN \
  ORDERS_LIMITS_WRITES_AGENT_QUOTA=1000000 ORDERS_LIMITS_WRITES_HUMAN_QUOTA=1000000 \
  ORDERS_LIMITS_NEW_KEYS_AGENT_QUOTA=10000000 ORDERS_LIMITS_NEW_KEYS_HUMAN_QUOTA=10000000 \
  ORDERS_LIMITS_SPEND_AGENT_AMOUNT=1000000000000 ORDERS_LIMITS_SPEND_HUMAN_AMOUNT=1000000000000 \
  java -Xmx512m ${SERVICE_OPTS:-} -jar quarkus-run.jar) > "$OUT/service.log" 2>&1 &
SERVICE_PID=$!
pids+=("$SERVICE_PID")
ready=$(wait_http "http://127.0.0.1:$MANAGEMENT_PORT/q/health/ready" "$started") \
  || { echo "the service did not start"; tail -20 "$OUT/service.log"; exit 1; }
echo "service ($APP_DIR) ready in $ready ms (pid $SERVICE_PID, ${SERVICE_OPTS:-no extra options}); redis pid $REDIS_PID"

status=0
java -Xmx2g src/bench/Storm.java --base="http://127.0.0.1:$HTTP_PORT" \
  --management="http://127.0.0.1:$MANAGEMENT_PORT" --redis="127.0.0.1:$REDIS_PORT" \
  --key="$OUT/key.pem" --issuer="$ISSUER" --phase="$PHASE" --plateau="$PLATEAU" \
  --pids="svc=$SERVICE_PID,redis=$REDIS_PID" --clock-ticks="$(getconf CLK_TCK)" "$@" | tee "$OUT/storm.txt" \
  || status=$?
echo "output kept in $OUT/storm.txt; service log $OUT/service.log"
exit "$status"
