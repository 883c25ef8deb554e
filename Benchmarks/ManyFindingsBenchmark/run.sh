#!/usr/bin/env bash
# `contract verify` on a one-line JSON body of N items that all fail their schema, against the same
# body checked by a schema it passes, in the same run: schema findings are capped per body (the
# rest counted) and located by byte offset, so reporting stays linear in the body.
# Release build, best of three. Usage: Benchmarks/ManyFindingsBenchmark/run.sh [ITEMS...]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
server=""
trap '[ -n "$server" ] && kill $server 2>/dev/null; rm -rf "$work"' EXIT
sizes=(${@:-100000 200000 1000000})
for items in "${sizes[@]}"; do
    python3 -c "import sys; open(sys.argv[1], 'w').write('[' + ','.join(['\"x\"'] * int(sys.argv[2])) + ']')" "$work/body$items.json" "$items"
    for kind in fail:integer pass:string; do
        mkdir -p "$work/${kind%%:*}"
        cat > "$work/${kind%%:*}/b$items.json" <<JSON
{ "id": "b$items", "request": { "method": "GET", "path": "/body$items.json" },
  "cases": [ { "name": "all", "response": { "status": 200, "schema": { "items": { "type": "${kind##*:}" } } } } ] }
JSON
    done
done
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
(cd "$work" && exec python3 -m http.server "$port" --bind 127.0.0.1 > /dev/null 2>&1) &
server=$!
until curl -s -o /dev/null "http://127.0.0.1:$port/"; do sleep 0.1; done
(cd "$root" && swift build -c release --product contract > /dev/null)
contract="$root/.build/release/contract"
# seconds KIND ITEMS: the best of three wall times of verify against the tree KIND (pass or fail).
seconds() {
    local best=""
    for run in 1 2 3; do
        local start=$EPOCHREALTIME
        "$contract" verify --base-url "http://127.0.0.1:$port" --id "b$2" --report "json=$work/report.json" --color never "$work/$1" \
            > "$work/out-$1.txt" || true
        local elapsed=$(python3 -c "print($EPOCHREALTIME - $start)")
        best=$(python3 -c "print(min(x for x in [$elapsed, ${best:-$elapsed}]))")
    done
    printf '%.3f' "$best"
}
echo "items    body MiB  passing s  failing s  failing / passing  failing peak MiB"
for items in "${sizes[@]}"; do
    passing=$(seconds pass "$items")
    failing=$(seconds fail "$items")
    grep -q "more schema errors in this body" "$work/out-fail.txt" || { echo "the findings were not capped"; exit 1; }
    /usr/bin/time -f "%M" -o "$work/memory" "$contract" verify --base-url "http://127.0.0.1:$port" --id "b$items" \
        --report "json=$work/report.json" --color never "$work/fail" > /dev/null || true
    memory=$(grep -E '^[0-9]+$' "$work/memory")
    size=$(python3 -c "import os; print(f'{os.path.getsize(\"$work/body$items.json\") / 1048576:.1f}')")
    printf '%-8s %8s %10s %10s %18s %17s\n' "$items" "$size" "$passing" "$failing" "$(python3 -c "print(f'{$failing / $passing:.1f}')")" "$(( memory / 1024 ))"
done
