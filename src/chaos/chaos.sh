#!/usr/bin/env bash
# The chaos harness, full run: agent intents retried with timeouts and jitter by 16 concurrent clients against
# two packaged instances on a real Redis Sentinel deployment (a primary, two replicas, one Sentinel) on loopback,
# while it kills -9 a service instance, kills -9 the Redis primary (Sentinel failover), freezes the primary
# (SIGSTOP) and pauses its clients (CLIENT PAUSE). It prints, for each min-replica-acks setting: intents,
# acknowledged, orders created, duplicate orders, duplicate charges, acknowledged orders lost, 5xx answered,
# longest unavailability. The engine is src/test/java/io/ghostguard/it/ChaosIT.java (its short mode runs in CI).
# Needs redis-server (with redis-sentinel mode) and redis-cli. Every loop is bounded.
# Usage: src/chaos/chaos.sh [intents, default 10000] [seconds to spread them over, default 120] [settings, default 0,1]
set -euo pipefail
cd "$(dirname "$0")/../.."
INTENTS=${1:-10000}
SECONDS_SPREAD=${2:-120}
SETTINGS=${3:-0,1}
command -v redis-server >/dev/null || { echo "redis-server is required (apt-get install -y redis-server redis-sentinel)"; exit 1; }
echo "machine: $(nproc) cores, $(free -g | awk '/Mem/ {print $2}') GiB, $(java -version 2>&1 | head -1)"
./mvnw -B verify -Pops -Dtest=NONE -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=ChaosIT \
  -Dchaos.intents="$INTENTS" -Dchaos.seconds="$SECONDS_SPREAD" -Dchaos.acks="$SETTINGS" \
  | grep -E '^chaos:|Tests run:|BUILD|FAIL'
