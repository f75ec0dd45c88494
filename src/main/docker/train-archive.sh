#!/bin/sh
# Writes the start-up archive of a packaged application where it runs, by a training start with the JDK that will run
# it (an archive only fits the JDK build, the JVM options' kind of heap and the class path that wrote it):
#   JDK 24 and later: the AOT cache (JEP 483, 514, 515), DIR/app.aot; run with -XX:AOTCache=app.aot
#   JDK 17 to 23:     the AppCDS archive, DIR/app-cds.jsa; run with -XX:SharedArchiveFile=app-cds.jsa
# The training start is a whole start: the service initialises everything a start initialises (configuration,
# validation, REST and MCP endpoints, JSON, identity, telemetry, its own start-up work) until it says it has started,
# then it is stopped and the JVM writes what it loaded and linked. It needs no Redis and no identity provider (both
# are given unreachable addresses, and the service starts without them, not ready), and binds loopback ports the
# system picks. Used by the container image (Dockerfile.jvm), the README's production run, the benchmark
# (src/bench/compare.sh) and CI. Every wait is bounded.
# Usage: train-archive.sh DIR [java, default java on the PATH]
set -eu
dir=${1:?usage: train-archive.sh DIR [java]}
java=${2:-java}
cd "$dir"
if "$java" -XX:+PrintFlagsFinal -version 2>/dev/null | grep -q ' AOTCacheOutput '; then
  archive=app.aot
  # The heap as the Deployment sizes it (640Mi, 55 %): a cache trained with another kind of heap (say compressed
  # object pointers off, on a builder with much memory) would be refused by the pod's JVM.
  set -- -XX:MaxRAM=640m -XX:MaxRAMPercentage=55 -XX:AOTCacheOutput=app.aot
else
  archive=app-cds.jsa
  set -- -XX:ArchiveClassesAtExit=app-cds.jsa
fi
rm -f "$archive" training.log
"$java" "$@" -Djava.util.logging.manager=org.jboss.logmanager.LogManager \
  -Dquarkus.http.host=127.0.0.1 -Dquarkus.http.port=0 -Dquarkus.management.host=127.0.0.1 \
  -Dquarkus.management.port=0 -Dquarkus.redis.hosts=redis://127.0.0.1:1 \
  -Dquarkus.oidc.auth-server-url=http://127.0.0.1:1/training \
  -Dquarkus.log.category.io.quarkus.level=INFO -jar quarkus-run.jar > training.log 2>&1 &
app=$!
started=no
for _ in $(seq 1 900); do
  if grep -q ' started in ' training.log; then started=yes; break; fi
  kill -0 "$app" 2>/dev/null || break
  sleep 0.2
done
kill "$app" 2>/dev/null || true
wait "$app" || true
if [ "$started" != yes ]; then
  echo "the training start did not start within 180 s:"; tail -20 training.log; exit 1
fi
test -s "$archive" || { echo "no $archive written:"; tail -20 training.log; exit 1; }
rm -f training.log
echo "wrote $dir/$archive ($(du -m "$archive" | cut -f1) MiB) by a training start"
