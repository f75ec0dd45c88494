#!/usr/bin/env bash
# Lints the OpenAPI document that the build stores in target/openapi
# (quarkus.smallrye-openapi.store-schema-directory) with Spectral and the OWASP API ruleset.
# Run ./mvnw package first. Exits non-zero when any finding has severity error.
# Usage: src/test/openapi/lint.sh [path/to/openapi.json]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
doc="${1:-$root/target/openapi/openapi.json}"

if [[ ! -f "$doc" ]]; then
  echo "lint.sh: $doc not found; run ./mvnw package first" >&2
  exit 2
fi

# Install exactly what package-lock.json pins (again when the lock changed since the last install).
if [[ ! -x "$here/node_modules/.bin/spectral" || "$here/package-lock.json" -nt "$here/node_modules/.package-lock.json" ]]; then
  npm ci --prefix "$here" --no-audit --no-fund
fi

mkdir -p "$root/target"
exec "$here/node_modules/.bin/spectral" lint "$doc" \
  --ruleset "$here/.spectral.yaml" \
  --fail-severity=error \
  --format=stylish \
  --format=json --output.json="$root/target/spectral.json"
