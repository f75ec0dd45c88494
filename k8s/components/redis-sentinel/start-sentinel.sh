#!/bin/sh
# Starts this pod's Sentinel. Its state (the current primary, known peers) lives on the pod's volume, so a
# restart of every pod keeps the primary the Sentinels elected instead of falling back to pod 0.
set -eu
CONF=/data/sentinel/sentinel.conf
mkdir -p /data/sentinel
if [ ! -s "$CONF" ]; then
  cat > "$CONF" <<CONF
port 26379
sentinel resolve-hostnames yes
sentinel announce-hostnames yes
sentinel announce-ip $(hostname).ghostguard-redis
sentinel monitor mymaster ghostguard-redis-0.ghostguard-redis 6379 2
sentinel down-after-milliseconds mymaster 5000
sentinel failover-timeout mymaster 60000
sentinel parallel-syncs mymaster 1
sentinel auth-user mymaster sentinel
sentinel auth-pass mymaster $REDIS_ADMIN_PASSWORD
requirepass $QUARKUS_REDIS_PASSWORD
sentinel sentinel-pass $QUARKUS_REDIS_PASSWORD
CONF
fi
exec redis-sentinel "$CONF"
