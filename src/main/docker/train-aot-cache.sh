#!/bin/sh
# Writes the JDK's AOT cache (JEP 483, 514, 515) of a packaged application: DIR/app.aot, by a training start with
# the JDK that will run it (a cache only works with the JDK build that wrote it). The application initialises and
# exits (-Dquarkus.appcds.generate=true, known to every package of this project); the JVM records what it loaded
# and linked. Used by the container image (Dockerfile.jvm), the benchmark (src/bench/compare.sh) and CI.
# Usage: train-aot-cache.sh DIR [java, default java on the PATH]
set -eu
dir=${1:?usage: train-aot-cache.sh DIR [java]}
java=${2:-java}
cd "$dir"
rm -f app.aot
# The heap as the Deployment sizes it (640Mi, 55 %): a cache trained with another kind of heap (say compressed
# object pointers off, on a builder with much memory) would be refused by the pod's JVM.
"$java" -XX:MaxRAM=640m -XX:MaxRAMPercentage=55 -XX:AOTCacheOutput=app.aot -Dquarkus.appcds.generate=true \
  -Djava.util.logging.manager=org.jboss.logmanager.LogManager -jar quarkus-run.jar
test -s app.aot
