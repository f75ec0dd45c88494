# Shared by the benchmark scripts (sourced, not run): bearer tokens as deployed, readiness, wrk runs.
# Expects OUT (output directory) and CONNECTIONS to be set by the caller.

# Every run_wrk run with non-2xx answers or socket errors, by name (a run's rate counts every answer).
INVALID_RUNS=()

# A key pair made for this run (never committed), and BENCH_TOKEN signed with it; sets PUBLIC_KEY (base64 DER),
# PUBLIC_PEM (file), ISSUER and AUTH (the header).
mint_token() {
  openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$OUT/key.pem" 2>/dev/null
  openssl pkey -in "$OUT/key.pem" -pubout -out "$OUT/public.pem"
  PUBLIC_PEM="$OUT/public.pem"
  PUBLIC_KEY=$(openssl pkey -in "$OUT/key.pem" -pubout -outform DER | base64 -w0)
  ISSUER=https://issuer.bench.local
  local header payload
  header=$(printf '{"alg":"RS256","typ":"JWT"}' | b64url)
  payload=$(printf '{"iss":"%s","sub":"bench","tenant":"bench","scope":"orders:read orders:write inventory:write","iat":%d,"exp":%d}' \
    "$ISSUER" "$(date +%s)" $(( $(date +%s) + 7200 )) | b64url)
  BENCH_TOKEN="$header.$payload.$(printf '%s.%s' "$header" "$payload" \
    | openssl dgst -sha256 -sign "$OUT/key.pem" -binary | b64url)"
  export BENCH_TOKEN
  AUTH="Authorization: Bearer $BENCH_TOKEN"
}
b64url() { base64 -w0 | tr '+/' '-_' | tr -d '='; }

# Waits (bounded, 30 s) until URL answers with any HTTP status; prints the milliseconds since START_NS.
wait_http() { # url start_ns
  for _ in $(seq 1 600); do
    if curl -s -o /dev/null "$1" 2>/dev/null; then
      echo $(( ($(date +%s%N) - $2) / 1000000 ))
      return 0
    fi
    sleep 0.05
  done
  echo "timeout"
  return 1
}

# Places one order of one unit of SKU under Idempotency-Key KEY on the service at BASE; prints its id.
place_one() { # base-url sku key
  curl -sf -X POST "$1/api/v1/orders" -H 'Content-Type: application/json' -H "Idempotency-Key: $3" -H "$AUTH" \
    -d '{"customerId":"bench","items":[{"sku":"'"$2"'","quantity":1}],"currency":"EUR","paymentToken":"tok_ok"}' \
    | sed 's/.*"id":"\([^"]*\)".*/\1/'
}

# Resident memory of a process in MiB.
rss_mib() { awk '/VmRSS/ {printf "%d", $2 / 1024}' "/proc/$1/status"; }

# The packaged application in DIR, built when it is missing (compile and package only: no test phase).
ensure_app() { # dir
  [ -f "$1/quarkus-run.jar" ] || ./mvnw -B -q compile quarkus:build
}

# async-profiler 4.1 from Maven Central, unpacked under OUT; sets AGENT to its Linux x64 library.
fetch_async_profiler() {
  local version=4.1 jar
  jar=$HOME/.m2/repository/tools/profiler/async-profiler/$version/async-profiler-$version.jar
  [ -f "$jar" ] || ./mvnw -B -q dependency:get -Dartifact=tools.profiler:async-profiler:$version -Dtransitive=false
  rm -rf "$OUT/async-profiler" && mkdir -p "$OUT/async-profiler" && (cd "$OUT/async-profiler" && unzip -q "$jar")
  AGENT=$(pwd)/$OUT/async-profiler/linux-x64/libasyncProfiler.so
}

# CPU time (user + system) of a process so far, in clock ticks.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }

# One wrk run; prints "name req/s p99" and sets RPS_<name> and P99_<name>. With CPU_PIDS (a list of
# label=pid, e.g. "jvm=123 redis=456") it also prints each process's CPU time per request, in microseconds, and
# sets CPU_<name>_<label>.
run_wrk() { # name, seconds, wrk args...
  local name=$1 seconds=$2; shift 2
  local entry before=() after=() i=0
  for entry in ${CPU_PIDS:-}; do before+=("$(cpu_ticks "${entry#*=}")"); done
  wrk -t2 -c"$CONNECTIONS" -d"${seconds}s" --latency "$@" > "$OUT/$name.txt"
  for entry in ${CPU_PIDS:-}; do after+=("$(cpu_ticks "${entry#*=}")"); done
  local rps p99 non2xx requests cpu=''
  rps=$(awk '/Requests\/sec/ {print $2}' "$OUT/$name.txt")
  p99=$(awk '$1 == "99%" {print $2}' "$OUT/$name.txt")
  non2xx=$(awk '/Non-2xx/ {print $5}' "$OUT/$name.txt")
  # wrk's socket errors (connect, read, write, timeout) count as not answered: a connection the service closed.
  non2xx=$(( ${non2xx:-0} + $(awk '/Socket errors/ {gsub(/,/, ""); n = $4 + $6 + $8 + $10} END {print n + 0}' "$OUT/$name.txt") ))
  requests=$(awk '/requests in/ {print $1}' "$OUT/$name.txt")
  for entry in ${CPU_PIDS:-}; do
    [ "${requests:-0}" -gt 0 ] 2>/dev/null || break
    local us
    us=$(awk -v t="$(( after[i] - before[i] ))" -v hz="$(getconf CLK_TCK)" -v n="$requests" \
      'BEGIN {printf "%.0f", t * 1000000 / hz / n}')
    cpu+="   ${entry%%=*} $us us/req"
    eval "CPU_${name//-/_}_${entry%%=*}=$us"
    i=$(( i + 1 ))
  done
  printf '  %-26s %10s req/s   p99 %8s   non-2xx %s%s\n' "$name" "$rps" "$p99" "${non2xx:-0}" "$cpu"
  [ "${non2xx:-0}" = 0 ] || INVALID_RUNS+=("$name (${non2xx})")
  eval "RPS_${name//-/_}=$rps"
  eval "P99_${name//-/_}=$p99"
}
