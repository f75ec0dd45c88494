#!/usr/bin/env bash
# What the start costs: the packaged application started with async-profiler (from Maven Central) attached from
# launch until management readiness answers 200, then summarised by src/bench/startup-summary.py (the main
# thread's CPU by start step and by layer; the other threads' share). Loopback only; bounded.
# Needs redis-server, curl, python3 and openssl. Usage: src/bench/startup-profile.sh [java, default java]
#   [application directory, default target/quarkus-app] [extra JVM options...]
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
JAVA=${1:-java}
APP_DIR=${2:-target/quarkus-app}
shift $(( $# > 2 ? 2 : $# ))
CONNECTIONS=32
OUT=target/bench/startup
mkdir -p "$OUT"
# shellcheck source=src/bench/common.sh
source src/bench/common.sh
ensure_app "$APP_DIR"
fetch_async_profiler
mint_token
redis-server --port 16422 --bind 127.0.0.1 --save "" --appendonly no --loglevel warning > "$OUT/redis.log" 2>&1 &
REDIS=$!
trap 'kill $REDIS 2>/dev/null || true' EXIT
sleep 0.5
started=$(date +%s%N)
(cd "$APP_DIR" && exec "$JAVA" "$@" \
  -agentpath:"$AGENT"=start,event=cpu,interval=1ms,collapsed,file="$ROOT/$OUT/start.collapsed" \
  -Dquarkus.http.port=18422 -Dquarkus.http.host=127.0.0.1 -Dquarkus.management.port=19422 \
  -Dquarkus.management.host=127.0.0.1 -Dquarkus.redis.hosts=redis://127.0.0.1:16422 \
  -Dquarkus.oidc.public-key="$PUBLIC_KEY" -Dquarkus.oidc.token.issuer="$ISSUER" -jar quarkus-run.jar) \
  > "$OUT/app.log" 2>&1 &
APP=$!
trap 'kill $APP $REDIS 2>/dev/null || true' EXIT
ready=no
for _ in $(seq 1 600); do
  [ "$(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:19422/q/health/ready)" = 200 ] && { ready=yes; break; }
  sleep 0.05
done
[ "$ready" = yes ] || { echo "not ready within 30 s (see $OUT/app.log)"; exit 1; }
echo "ready (management readiness 200) after $(( ($(date +%s%N) - started) / 1000000 )) ms, under the profiler"
kill "$APP"; wait "$APP" 2>/dev/null || true
python3 src/bench/startup-summary.py "$OUT/start.collapsed"
