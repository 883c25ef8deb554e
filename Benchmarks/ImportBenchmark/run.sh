#!/usr/bin/env bash
# Import time of `contract import openapi` (release build) for documents of 25 to 400 operations
# whose component schemas form one reference chain, and of the public uspto example; best of 3.
# Usage: Benchmarks/ImportBenchmark/run.sh
# CONTRACT=path/to/contract measures that binary instead of building the release one (Benchmarks/run-all builds it once).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -n "${CONTRACT:-}" ] || (cd "$root" && swift build -c release --product contract >/dev/null)
contract=${CONTRACT:-$root/.build/release/contract}
best() {
    for _ in 1 2 3; do
        rm -rf "$work/out"
        /usr/bin/time -f "%e" -o "$work/t" "$contract" import openapi "$1" --out "$work/out" >/dev/null
        cat "$work/t"
    done | sort -n | head -1
}
for n in 25 100 400; do
    python3 "$here/make-document.py" "$n" > "$work/chain-$n.json"
    echo "chain of $n operations: $(best "$work/chain-$n.json") s"
done
echo "uspto.yaml (../shared/openapi): $(best "$root/../shared/openapi/v3.0/uspto.yaml") s"
