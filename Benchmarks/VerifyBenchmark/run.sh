#!/usr/bin/env bash
# Verify throughput against one fast loopback endpoint (nginx serving a static JSON page), in the
# same run as two references on the same endpoint and concurrency: wrk (the limit of loopback
# HTTP here) and a bare libcurl multi loop with no checks (what our wrapper adds on top of curl).
# Usage: Benchmarks/VerifyBenchmark/run.sh [CASES=10000] [IN_FLIGHT=16]
# BEFORE=/path/to/an/older/contract also measures that binary in the same run (a before/after
# pair on the same machine state: build the older commit in a git worktree).
set -euo pipefail
cases=${1:-10000}
inflight=${2:-16}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

missing=()
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx-light)
command -v wrk >/dev/null || missing+=(wrk)
[ -x /usr/bin/time ] || missing+=(time)
dpkg -s libcurl4-openssl-dev >/dev/null 2>&1 || missing+=(libcurl4-openssl-dev)
if [ ${#missing[@]} -gt 0 ]; then
    apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null
fi
nginx=$(command -v nginx || echo /usr/sbin/nginx)

work=$(mktemp -d)
chmod 755 "$work"  # nginx workers run as another user and must read the page
trap '[ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null; rm -rf "$work"' EXIT
python3 "$here/make-data.py" "$work" "$cases"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat > "$work/nginx.conf" <<CONF
worker_processes 1;
pid $work/nginx.pid;
error_log $work/error.log;
events { worker_connections 1024; }
http {
    include /etc/nginx/mime.types;
    access_log off;
    keepalive_requests 1000000;
    server { listen 127.0.0.1:$port; root $work/www; }
}
CONF
"$nginx" -c "$work/nginx.conf" -p "$work"
gcc -O2 -o "$work/curl-loop" "$here/curl-loop.c" -lcurl
(cd "$root" && swift build -c release --product contract >/dev/null && swift build -c release --product HTTPClientBenchmark >/dev/null)
contract="$root/.build/release/contract"
client="$root/.build/release/HTTPClientBenchmark"
best() { sort -n | tail -1; }
ratio() { python3 -c "print(f'{$1/$2:.2f}')"; }

# Requests per second of `contract verify` on a tree, from its summary line ("N cases: … in 1.23 s").
verify_rate() {
    "${2:-$contract}" verify --base-url "http://127.0.0.1:$port" --concurrency "$inflight" --color never "$1" > "$work/out.txt" || {
        echo "contract verify failed:"; grep -v "^PASS" "$work/out.txt" | head -20; exit 1; }
    tail -1 "$work/out.txt" | awk -v n="$cases" '{ s = ($NF == "ms") ? $(NF-1) / 1000 : $(NF-1); print int(n / s) }'
}

echo "$cases requests per run, $inflight in flight, best of 3 runs; ratios to wrk on the same endpoint"
printf '%-40s %10s %8s\n' "" "req/s" "ratio"
for body in page product; do
    url="http://127.0.0.1:$port/$body.json"
    bytes=$(stat -c %s "$work/www/$body.json")
    wrk_rate=$(for i in 1 2 3; do wrk -t1 -c"$inflight" -d5s "$url" | awk '/Requests\/sec/ {print int($2)}'; done | best)
    curl_rate=$(for i in 1 2 3; do "$work/curl-loop" "$url" "$cases" "$inflight"; done | best)
    client_rate=$(for i in 1 2 3; do "$client" "$url" "$cases" "$inflight"; done | best)
    # The ceiling of any verifier with this validator here: the wrapper plus parsing and validating
    # each body against the same schema, with no other check, result or report.
    floor_rate=$(for i in 1 2 3; do SCHEMA="$work/contracts-$body/schemas/$body.json" "$client" "$url" "$cases" "$inflight"; done | best)
    verify=$(for i in 1 2 3; do verify_rate "$work/contracts-$body"; done | best)
    if [ -n "${BEFORE:-}" ]; then before=$(for i in 1 2 3; do verify_rate "$work/contracts-$body" "$BEFORE"; done | best); fi
    echo "GET /$body.json ($bytes bytes of JSON; schema with \$ref, formats, a pattern, an enum):"
    printf '  %-38s %10s %8s\n' "wrk (loopback limit)" "$wrk_rate" "1.00"
    printf '  %-38s %10s %8s\n' "bare libcurl multi loop" "$curl_rate" "$(ratio "$curl_rate" "$wrk_rate")"
    printf '  %-38s %10s %8s\n' "ContractHTTP alone (stream, no checks)" "$client_rate" "$(ratio "$client_rate" "$wrk_rate")"
    printf '  %-38s %10s %8s\n' "ContractHTTP + parse + validate only" "$floor_rate" "$(ratio "$floor_rate" "$wrk_rate")"
    printf '  %-38s %10s %8s\n' "contract verify, schema validation on" "$verify" "$(ratio "$verify" "$wrk_rate")"
    if [ -n "${BEFORE:-}" ]; then
        printf '  %-38s %10s %8s\n' "the BEFORE contract verify" "$before" "$(ratio "$before" "$wrk_rate")"
        echo "  to the ceiling (+ parse + validate only): contract verify $(ratio "$verify" "$floor_rate"), BEFORE $(ratio "$before" "$floor_rate")"
    else
        echo "  to the ceiling (+ parse + validate only): contract verify $(ratio "$verify" "$floor_rate")"
    fi
    echo "  to the bare curl loop: ContractHTTP $(ratio "$client_rate" "$curl_rate"), + parse + validate $(ratio "$floor_rate" "$curl_rate"), contract verify $(ratio "$verify" "$curl_rate")"
    # CPU (user + system) per case, whole process, which the machine's other load disturbs far less
    # than wall time. Verify's rate above is its request phase alone (its summary's duration starts
    # after loading and planning), as the ceiling's is; its CPU here includes loading, shown apart
    # as what `contract lint` of the same tree costs.
    cpu() { /usr/bin/time -f "%U %S" -o "$work/cpu" "$@" > /dev/null || true; awk -v n="$cases" '{ printf "%.1f", ($1 + $2) * 1e6 / n }' "$work/cpu"; }
    floor_cpu=$(cpu env SCHEMA="$work/contracts-$body/schemas/$body.json" "$client" "$url" "$cases" "$inflight")
    verify_cpu=$(cpu "$contract" verify --base-url "http://127.0.0.1:$port" --concurrency "$inflight" --color never "$work/contracts-$body")
    lint_cpu=$(cpu "$contract" lint "$work/contracts-$body")
    echo "  CPU per case (user + system, µs): ceiling $floor_cpu, contract verify $verify_cpu (loading and linting alone: $lint_cpu)"
done

small=$(( cases / 10 ))
python3 "$here/make-data.py" "$work/small" "$small"
for tree in "$work/contracts-page" "$work/small/contracts-page"; do
    /usr/bin/time -f "%M" -o "$work/rss" "$contract" verify --base-url "http://127.0.0.1:$port" --concurrency "$inflight" \
        --color never "$tree" > /dev/null
    /usr/bin/time -f "%M" -o "$work/rss-lint" "$contract" lint "$tree" > /dev/null
    echo "peak memory, $(grep -c '"name": "case-' "$tree/page.json") page cases: verify $(( $(cat "$work/rss") / 1024 )) MiB (of which loading and linting the contracts: $(( $(cat "$work/rss-lint") / 1024 )) MiB)"
done
