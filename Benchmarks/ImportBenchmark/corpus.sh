#!/usr/bin/env bash
# `contract import openapi` on every document of the shared corpus of real API descriptions
# (release build, best of 3), beside the time PyYAML's C loader (or Python's json) takes only to
# parse the same root file in the same run: import time, peak memory, and the ratio to parsing.
# Usage: Benchmarks/ImportBenchmark/corpus.sh [CORPUS_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
corpus=${1:-$root/../shared/openapi-corpus}
[ -d "$corpus" ] || corpus=/work/shared/openapi-corpus
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$root" && swift build -c release --product contract > /dev/null)
contract="$root/.build/release/contract"
printf '%-54s %8s %9s %9s %8s\n' document "MB" "parse s" "import s" "peak MiB"
for document in $(cd "$corpus" && ls */*.json */*.yaml */*.yml */specification/*.yaml 2>/dev/null | grep -v -e '^LICENSES' -e '/spec/' -e 'components' | sort -u); do
    case "$document" in sendgrid/*) [ "$document" = sendgrid/oas_v3.json ] || continue ;; esac
    size=$(du -sb "$corpus/${document%%/*}" | awk '{printf "%.2f", $1 / 1e6}')
    parse=$(python3 - "$corpus/$document" <<'PY'
import json, sys, time, yaml
path = sys.argv[1]
best = None
for _ in range(3):
    start = time.perf_counter()
    with open(path, "rb") as handle:
        json.load(handle) if path.endswith(".json") else yaml.load(handle, Loader=yaml.CSafeLoader)
    elapsed = time.perf_counter() - start
    best = elapsed if best is None else min(best, elapsed)
print(f"{best:.2f}")
PY
)
    best=""; memory=0
    for run in 1 2 3; do
        rm -rf "$work/out"
        /usr/bin/time -f "%e %M" -o "$work/t" "$contract" import openapi "$corpus/$document" --out "$work/out" > /dev/null 2>&1 || true
        read -r seconds kilobytes < <(grep -E '^[0-9.]+ [0-9]+$' "$work/t")
        if [ -z "$best" ] || python3 -c "import sys; sys.exit(0 if $seconds < $best else 1)"; then best=$seconds; memory=$kilobytes; fi
    done
    printf '%-54s %8s %9s %9s %8s\n' "$document" "$size" "$parse" "$best" "$(( memory / 1024 ))"
done
