#!/bin/sh
# Writes the start-up archive of a packaged application where it runs, by a training start with the JDK that will run
# it (an archive only fits the JDK build, the JVM options' kind of heap and the class path that wrote it):
#   JDK 25 and later: the AOT cache (JEP 483, 514, 515), DIR/app.aot; run with -XX:AOTCache=app.aot
#   JDK 17 to 24:     the AppCDS archive, DIR/app-cds.jsa; run with -XX:SharedArchiveFile=app-cds.jsa
# The training start runs the start until the service says it has started: configuration, validation, REST and MCP
# endpoints, JSON, identity, telemetry, its own start-up work (not what follows it: reaching Redis to become ready).
# Then it is stopped and the JVM writes what it loaded and linked. It needs no Redis and no identity provider (both
# are given unreachable addresses, as is the telemetry exporter; the service starts without them, not ready), and
# binds loopback ports the system picks. TRAINING_JAVA_OPTS adds JVM options (say the heap the service will run with).
# Used by the container image (Dockerfile.jvm), the README's production run, the benchmark (src/bench/compare.sh) and
# CI. Every wait is bounded; on any failure no archive is left behind.
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
rm -f "$archive"
: > training.log
# shellcheck disable=SC2086 # TRAINING_JAVA_OPTS is a list of options
"$java" "$@" ${TRAINING_JAVA_OPTS:-} -Djava.util.logging.manager=org.jboss.logmanager.LogManager \
  -Dquarkus.http.host=127.0.0.1 -Dquarkus.http.port=0 -Dquarkus.http.ssl-port=0 \
  -Dquarkus.management.host=127.0.0.1 -Dquarkus.management.port=0 -Dquarkus.redis.hosts=redis://127.0.0.1:1 \
  -Dquarkus.oidc.auth-server-url=http://127.0.0.1:1/training \
  -Dquarkus.otel.exporter.otlp.endpoint=http://127.0.0.1:1 \
  '-Dquarkus.log.category."io.quarkus".level=INFO' -jar quarkus-run.jar > training.log 2>&1 &
app=$!
# The JVM goes with this script, however it ends.
trap 'kill "$app" 2>/dev/null || true' EXIT HUP INT TERM
fail() {
  echo "$1:"; tail -20 training.log; rm -f "$archive"; exit 1
}
started=no
for _ in $(seq 1 900); do
  if grep -q ' started in ' training.log; then started=yes; break; fi
  kill -0 "$app" 2>/dev/null || { started=exited; break; }
  sleep 0.2
done
kill "$app" 2>/dev/null || true
# The stop (the service's graceful shutdown, then the archive's writing) is bounded too.
for _ in $(seq 1 900); do
  kill -0 "$app" 2>/dev/null || break
  sleep 0.2
done
if kill -0 "$app" 2>/dev/null; then
  kill -9 "$app" 2>/dev/null || true
  fail "the training start did not stop within 180 s"
fi
status=0
wait "$app" || status=$?
trap - EXIT HUP INT TERM
[ "$started" = exited ] && fail "the training start exited before it started (status $status)"
[ "$started" = yes ] || fail "the training start did not start within 180 s"
test -s "$archive" || fail "no $archive written"
rm -f training.log
echo "wrote $dir/$archive ($(du -m "$archive" | cut -f1) MiB) by a training start"
