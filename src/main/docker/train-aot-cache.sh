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
"$java" -XX:MaxRAMPercentage=70 -XX:AOTCacheOutput=app.aot -Dquarkus.appcds.generate=true \
  -Djava.util.logging.manager=org.jboss.logmanager.LogManager -jar quarkus-run.jar
test -s app.aot
