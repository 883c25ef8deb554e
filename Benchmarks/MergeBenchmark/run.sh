#!/usr/bin/env bash
# `contract merge` at nightly scale: the example API in its drifting mode is verified in four
# shards, each shard's JSON report is grown to CASES/4 cases (copies of its cases under new names
# and places, 60% failing as the example's), and the four are merged into JSON, JUnit and
# Markdown. Reference, in the same run: Python's json module loading the same four files, sorting
# the cases and writing one JSON file (what a hand-made merge script would do).
# Usage: Benchmarks/MergeBenchmark/run.sh [CASES=40000]   (SCRATCH=.build-perf builds beside .build)
# CONTRACT=path/to/contract measures that binary instead of building the release one (Benchmarks/run-all builds it once).
set -euo pipefail
cases=${1:-40000}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
scratch=${SCRATCH:-.build}
[ -n "${CONTRACT:-}" ] || swift build -c release --product contract --scratch-path "$scratch" 2>&1 | tail -1
contract=${CONTRACT:-$scratch/release/contract}
swift build --package-path examples/MarketAPI 2>&1 | tail -1
work=$(mktemp -d)
server_pid=""
trap '[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$work"' EXIT
examples/MarketAPI/.build/debug/MarketAPI --port 0 --drift > "$work/server.txt" 2>&1 &
server_pid=$!
for _ in $(seq 1 100); do
    base_url=$(sed -n 's/^listening on \(http:[^ ]*\).*/\1/p' "$work/server.txt")
    [ -n "$base_url" ] && break
    sleep 0.1
done
for i in 1 2 3 4; do
    MARKET_TOKEN=example-token "$contract" verify --base-url "$base_url" --shard "$i/4" --quiet \
        --report "json=$work/small-$i.json" contracts > /dev/null || true
done
python3 - "$work" "$cases" <<'PY'
import json, sys
work, total = sys.argv[1], int(sys.argv[2])
shards = [json.load(open(f"{work}/small-{i}.json")) for i in range(1, 5)]
proto = sorted((c for s in shards for c in s["cases"]), key=lambda c: c["position"])
per = total // 4
for i, shard in enumerate(shards):
    grown = []
    for k in range(per):
        place = i * per + k
        case = json.loads(json.dumps(proto[place % len(proto)]))
        case["case"] += f"-{place}"
        case["id"] = case["contract"] + "/" + case["case"]
        case["position"] = place
        grown.append(case)
    shard["cases"], shard["run"]["cases"], shard["fixed"] = grown, per * 4, []
    json.dump(shard, open(f"{work}/shard-{i + 1}.json", "w"), indent=2, sort_keys=True)
PY
echo "== $(du -ch "$work"/shard-*.json | tail -1 | cut -f1) of shard reports, $cases cases"
echo "-- contract merge (json, junit, markdown)"
/usr/bin/time -f "   %e s, %M KB peak" "$contract" merge "$work"/shard-*.json --quiet \
    --report "json=$work/m.json" --report "junit=$work/m.xml" --report "markdown=$work/m.md" > /dev/null || true
echo "-- reference: python3 json load + sort + dump"
/usr/bin/time -f "   %e s, %M KB peak" python3 -c "
import json, sys
cases = []
for i in range(1, 5): cases += json.load(open('$work/shard-%d.json' % i))['cases']
cases.sort(key=lambda c: c['position'])
json.dump({'cases': cases}, open('$work/py.json', 'w'), indent=2, sort_keys=True)
"
