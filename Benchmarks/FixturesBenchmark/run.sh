#!/usr/bin/env bash
# Fixture generation for 1,000 contracts whose bodies are all synthesized from schemas (no
# examples): time and peak memory of `contract fixtures` in release mode, best of three.
# Usage: Benchmarks/FixturesBenchmark/run.sh [CONTRACTS=1000]
# CONTRACT=path/to/contract measures that binary instead of building the release one (Benchmarks/run-all builds it once).
set -euo pipefail
count=${1:-1000}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work/contracts" "$count" <<'PY'
import json, os, sys
out, count = sys.argv[1], int(sys.argv[2])
os.makedirs(f"{out}/schemas", exist_ok=True)
product = {
    "type": "object", "required": ["id", "sku", "name", "price", "currency", "createdAt"], "additionalProperties": False,
    "properties": {
        "id": {"type": "integer", "minimum": 1}, "sku": {"type": "string", "pattern": "^SKU-[0-9]{4,6}$"},
        "name": {"type": "string", "minLength": 1, "maxLength": 80}, "price": {"type": "number", "minimum": 0, "multipleOf": 0.01},
        "currency": {"enum": ["KRW", "USD", "EUR"]}, "createdAt": {"type": "string", "format": "date-time"},
        "url": {"type": "string", "format": "uri"}, "owner": {"type": "string", "format": "email"},
        "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 3},
        "ref": {"type": "string", "format": "uuid"},
    },
}
json.dump(product, open(f"{out}/schemas/product.json", "w"))
for i in range(count):
    contract = {
        "id": f"bench.c{i:04d}", "request": {"method": "GET", "path": f"/items{i}/{{id}}"},
        "cases": [{"name": "found", "request": {"pathParams": {"id": i}}, "response": {"status": 200, "schema": {
            "type": "object", "required": ["data", "page"], "properties": {
                "data": {"type": "array", "minItems": 2, "items": {"$ref": "schemas/product.json"}},
                "page": {"type": "integer", "minimum": 1}}}}}],
    }
    json.dump(contract, open(f"{out}/c{i:04d}.json", "w"))
PY
[ -n "${CONTRACT:-}" ] || (cd "$root" && swift build -c release --product contract > /dev/null)
contract=${CONTRACT:-$root/.build/release/contract}
# One contract's page minimum between 1 and 2, so each run has one changed fixture (and manifest):
# the whole set is still rebuilt beside the folder and swapped in (hard links for what stays).
flip() {
    sed -i 's/"minimum": 1}}}}}/"minimum": 9}}}}}/; t; s/"minimum": 9}}}}}/"minimum": 1}}}}}/' "$work/contracts/c0000.json"
}
# measure LABEL ARGS...: best of three wall times and the peak memory of that run.
measure() {
    local label=$1; shift
    for run in 1 2 3; do
        [ "$label" = "first generation" ] && rm -rf "$work/out"
        [ "$label" = "regeneration, one contract changed" ] && flip
        /usr/bin/time -f "%e %U %S %M" -o "$work/time.$run" "$contract" "$@" > /dev/null
    done
    best=$(sort -n "$work"/time.* | head -1)
    read -r wall user system memory <<< "$best"
    printf '%-38s %6s s wall (%s s user, %s s system), peak memory %s MiB\n' "$label:" "$wall" "$user" "$system" "$(( memory / 1024 ))"
}
echo "$count contracts, every response body synthesized from its schema and validated (release, best of 3)"
measure "lint alone (load, schema checks)" lint "$work/contracts"
measure "first generation" fixtures --out "$work/out" "$work/contracts"
measure "regeneration, nothing changed" fixtures --out "$work/out" "$work/contracts"
measure "regeneration, one contract changed" fixtures --out "$work/out" "$work/contracts"
measure "--check" fixtures --check --out "$work/out" "$work/contracts"
