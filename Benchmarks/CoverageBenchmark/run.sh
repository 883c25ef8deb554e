#!/usr/bin/env bash
# `contract coverage` at a large team's scale: a tree of 40,000 cases, the merged report of a real
# verify run of it in four shards (against `contract serve` of the same tree), and usage from
# 10,000 tests in 8 test processes; coverage writes every report (JSON, Markdown, HTML) and the
# console. The goal is under 2 s. References in the same run: `contract lint` of the tree (the
# load stage coverage starts with) and `contract merge` of the same four reports.
# Usage: Benchmarks/CoverageBenchmark/run.sh [CONTRACTS=4000] [CASES_PER=10] [TESTS=10000] [ROUNDS=5]
# CONTRACT=path/to/contract measures that binary instead of building the release one (Benchmarks/run-all builds it once).
#        (SCRATCH=.build-perf builds beside .build)
set -euo pipefail
contracts=${1:-4000}; per=${2:-10}; tests=${3:-10000}; rounds=${4:-5}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
scratch=${SCRATCH:-.build}
[ -n "${CONTRACT:-}" ] || swift build -c release --product contract --scratch-path "$scratch" 2>&1 | tail -1
contract=${CONTRACT:-$root/$scratch/release/contract}
work=$(mktemp -d)
server_pid=""
trap '[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$work"' EXIT
python3 Benchmarks/CoverageBenchmark/make-inputs.py "$work" "$contracts" "$per" "$tests" 8
cd "$work"
"$contract" serve --port 0 --quiet --no-watch contracts > serve.txt 2> serve.err &
server_pid=$!
for _ in $(seq 1 600); do
    base_url=$(head -1 serve.txt 2>/dev/null || true)
    [ -n "$base_url" ] && break
    sleep 0.1
done
[ -n "$base_url" ] || { cat serve.err; exit 1; }
for i in 1 2 3 4; do
    "$contract" verify --base-url "$base_url" --shard "$i/4" --quiet --report "json=shard-$i.json" contracts > /dev/null || true
done
kill "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=""
echo "inputs: $(find contracts -name '*.json' | wc -l) contract files ($(du -sh contracts | cut -f1)), reports $(du -ch shard-*.json | tail -1 | cut -f1), usage $(du -sh usage | cut -f1) in $(ls usage | wc -l) files"

# Wall and CPU seconds of one command, as "wall cpu".
measure() {
    /usr/bin/time -f "%e %U %S" -o time.txt "$@" > /dev/null 2>&1 || true
    tail -1 time.txt | awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }'
}
coverage=("$contract" coverage contracts --usage usage --verify-report shard-1.json --verify-report shard-2.json --verify-report shard-3.json
    --verify-report shard-4.json --report json=c.json --report markdown=c.md --report html=c.html)
"${coverage[@]}" > first.txt || true
head -6 first.txt
for _ in $(seq 1 "$rounds"); do
    echo "coverage $(measure "${coverage[@]}")"
    echo "lint $(measure "$contract" lint contracts)"
    echo "merge $(measure "$contract" merge shard-1.json shard-2.json shard-3.json shard-4.json --report json=m.json)"
done > times.txt
python3 - times.txt <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    name, wall, cpu = line.split()
    rows.setdefault(name, []).append((float(wall), float(cpu)))
print(f"{'command':10} {'wall median':>12} {'min':>7} {'max':>7} {'cpu median':>11}")
for name, values in rows.items():
    walls = [w for w, _ in values]; cpus = [c for _, c in values]
    print(f"{name:10} {statistics.median(walls):12.2f} {min(walls):7.2f} {max(walls):7.2f} {statistics.median(cpus):11.2f}")
cov = statistics.median(w for w, _ in rows["coverage"])
print(f"coverage / lint: {cov / statistics.median(w for w, _ in rows['lint']):.2f}, coverage / merge: {cov / statistics.median(w for w, _ in rows['merge']):.2f}; goal: coverage under 2 s ({'met' if cov < 2 else 'NOT met'})")
PY
