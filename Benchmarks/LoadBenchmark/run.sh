#!/usr/bin/env bash
# Load speed and memory of `contract lint` on one large contract (the load stage is most of it):
# wall time, MB/s and peak memory (/usr/bin/time), best of three, beside Python's json.load of the
# same file (parse only) as the reference measured in the same run. Release build.
# Also `contract verify` with no server listening, for verify's whole memory at that size.
# Usage: Benchmarks/LoadBenchmark/run.sh [CASES=100000]
#   BASELINE=/path/to/another/contract  also measures that binary (a build of an older commit).
set -euo pipefail
cases=${1:-100000}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Two trees of about the same size: the repeated shape (VerifyBenchmark's cases, 224 bytes each)
# and a varied one (810 bytes a case, little repeated), with as many bytes.
python3 "$here/make-contracts.py" "$work/repeated" "$cases" repeated
python3 "$here/make-contracts.py" "$work/varied" $(( cases * 224 / 810 )) varied
mkdir -p "$work/tiny" && cp "$root/contracts/health.json" "$work/tiny/"
(cd "$root" && swift build -c release --scratch-path "$root/.build-perf" --product contract > /dev/null)
contract="$root/.build-perf/release/contract"

# best LABEL COMMAND...: best wall time of three runs, with that run's peak memory (KiB).
best() {
    local label=$1; shift
    for run in 1 2 3; do
        /usr/bin/time -f "%e %M" -o "$work/time.$run" "$@" > "$work/out.$run" 2>&1 || { cat "$work/out.$run"; exit 1; }
    done
    sort -n "$work"/time.* | head -1 > "$work/best.$label"
    rm -f "$work"/time.*
}
report() {  # LABEL BYTES
    read -r wall memory < "$work/best.$1"
    awk -v l="$1" -v w="$wall" -v m="$memory" -v b="$2" 'BEGIN {
        printf "  %-34s %6.2f s  %7.1f MB/s  peak %5d MiB  (%.1f times the file)\n", l, w, b / w / 1e6, m / 1024, m * 1024 / b }'
}
echo "contract lint, release build, best of 3 ($(nproc) cores); reference: Python $(python3 -c 'import sys; print(sys.version.split()[0])') json.load of the same file"
best "contract, one small contract" "$contract" lint "$work/tiny"
read -r _ tiny < "$work/best.contract, one small contract"
echo "  (a tree of one small contract: peak $(( tiny / 1024 )) MiB, the process itself)"
[ -n "${BASELINE:-}" ] && echo "  baseline lint: $BASELINE"
for shape in repeated varied; do
    file="$work/$shape/$shape.json"
    bytes=$(stat -c %s "$file")
    count=$(grep -c '"name": "case-' "$file")
    echo "$shape: $count cases, $(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }') MB"
    best "contract lint" "$contract" lint "$work/$shape"
    report "contract lint" "$bytes"
    if [ -n "${BASELINE:-}" ]; then
        best "baseline lint" "$BASELINE" lint "$work/$shape"
        report "baseline lint" "$bytes"
    fi
    # verify's whole memory at this size: load, plan and run, with no server listening (every
    # request is refused at once, so the run adds no response to hold). The varied cases send
    # ${env:TOKEN}.
    best "contract verify, no server" sh -c "TOKEN=benchmark '$contract' verify --base-url http://127.0.0.1:9 '$work/$shape' > /dev/null 2>&1; [ \$? = 3 ]"
    report "contract verify, no server" "$bytes"
    if [ -n "${BASELINE:-}" ]; then
        best "baseline verify, no server" sh -c "TOKEN=benchmark '$BASELINE' verify --base-url http://127.0.0.1:9 '$work/$shape' > /dev/null 2>&1; [ \$? = 3 ]"
        report "baseline verify, no server" "$bytes"
    fi
    best "python json.load" python3 -c 'import json, sys; json.load(open(sys.argv[1], "rb"))' "$file"
    report "python json.load" "$bytes"
    if python3 -c 'import orjson' 2> /dev/null; then
        best "python orjson.loads" python3 -c 'import orjson, sys; orjson.loads(open(sys.argv[1], "rb").read())' "$file"
        report "python orjson.loads" "$bytes"
    fi
done
