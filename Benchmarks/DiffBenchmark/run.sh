#!/usr/bin/env bash
# `contract diff` of OpenAPI documents, beside the reference measured in the same run: importing
# the NEW document once (`contract import openapi`), since a diff of two documents imports both.
# Pairs: Figma's REST API seven months apart (Tests/ContractDiffTests/Documents/figma), and the
# largest corpus document against itself (Cloudflare, 4.2 MB, 1,533 operations).
# Usage: Benchmarks/DiffBenchmark/run.sh   (SCRATCH=.build-perf builds beside .build)
# CONTRACT=path/to/contract measures that binary instead of building the release one (Benchmarks/run-all builds it once).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
scratch=${SCRATCH:-.build}
[ -n "${CONTRACT:-}" ] || swift build -c release --product contract --scratch-path "$scratch" 2>&1 | tail -1
contract=${CONTRACT:-$root/$scratch/release/contract}
[ -x "$contract" ] || contract="$scratch/release/contract"
corpus="$root/../shared/openapi-corpus"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

measure() {  # label, then the command
    local label=$1; shift
    /usr/bin/time -f "$label: %e s, %M KB peak" "$@" > "$work/out.txt" 2> "$work/time.txt" || true
    tail -1 "$work/time.txt"
}

run_pair() {  # name, old, new
    echo "== $1"
    measure "   import NEW (reference)" "$contract" import openapi "$3" --out "$work/import-$1"
    measure "   diff OLD NEW          " "$contract" diff "$2" "$3"
    echo "   $(tail -1 "$work/out.txt")"
    echo "   rules hit: $(grep -o '\[[a-z0-9-]*\] #' "$work/out.txt" | sort | uniq -c | sort -rn | awk '{printf "%s %s, ", $1, $2}' | sed 's/, $//')"
    rm -rf "$work/import-$1"
}

run_pair figma Tests/ContractDiffTests/Documents/figma/old.yaml Tests/ContractDiffTests/Documents/figma/new.yaml
[ -f "$corpus/cloudflare/openapi.json" ] && run_pair cloudflare-itself "$corpus/cloudflare/openapi.json" "$corpus/cloudflare/openapi.json"
