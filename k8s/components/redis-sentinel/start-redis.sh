#!/bin/sh
# Starts this pod's Redis: as a replica of the primary the Sentinels name, or, when no Sentinel knows one yet
# (a first start), pod 0 is the primary. Users and their commands are set here because their passwords come
# from Secrets (environment), not from a file.
set -eu
SELF="$(hostname).ghostguard-redis"
export REDISCLI_AUTH="$QUARKUS_REDIS_PASSWORD"
PRIMARY=""
for i in 0 1 2; do
  PRIMARY="$(redis-cli -h "ghostguard-redis-$i.ghostguard-redis" -p 26379 --raw sentinel get-master-addr-by-name mymaster 2>/dev/null | head -n 1 || true)"
  [ -n "$PRIMARY" ] && break
done
[ -n "$PRIMARY" ] || PRIMARY="ghostguard-redis-0.ghostguard-redis"
set -- /etc/redis/redis.conf --maxmemory "${REDIS_MAXMEMORY:-384mb}" --replica-announce-ip "$SELF" --masteruser replication --masterauth "$REDIS_ADMIN_PASSWORD"
if [ "$PRIMARY" != "$SELF" ]; then
  set -- "$@" --replicaof "$PRIMARY" 6379
fi
# The service (default user): the commands it sends and those its Lua scripts call, nothing else.
exec redis-server "$@" \
  --user default on ">$QUARKUS_REDIS_PASSWORD" resetchannels "~*" -@all \
    +eval +evalsha "+script|load" "+script|exists" +get +set +mget +hgetall +wait +ping +hello +auth +select \
    "+client|setname" "+client|setinfo" "+client|id" +role +quit +reset \
    +decr +del +exists +hdel +hget +hincrby +hkeys +hlen +hmget +hset +incr +incrby +lrange +pexpire +pttl +rpush +time \
    +zadd +zcard +zrange +zrangebyscore +zrem +zremrangebyscore \
  --user admin on ">$REDIS_ADMIN_PASSWORD" "~*" "&*" +@all \
  --user replication on ">$REDIS_ADMIN_PASSWORD" +psync +replconf +ping \
  --user sentinel on ">$REDIS_ADMIN_PASSWORD" allchannels +multi +slaveof +ping +exec +subscribe \
    "+config|rewrite" +role +publish +info "+client|setname" "+client|kill" "+script|kill" \
  --user exporter on ">$REDIS_EXPORTER_PASSWORD" "~*" +info +ping +select "+config|get" "+client|list" \
    "+slowlog|get" "+slowlog|len" "+latency|latest" +dbsize +role "+client|setname" +hello +auth
