#!/usr/bin/env bash
# Verify throughput against one fast loopback endpoint (nginx serving a static JSON page), in the
# same run as two references on the same endpoint and concurrency: wrk (the limit of loopback
# HTTP here) and a bare libcurl multi loop with no checks (what our wrapper adds on top of curl).
# Usage: Benchmarks/VerifyBenchmark/run.sh [CASES=10000] [IN_FLIGHT=16]
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
url="http://127.0.0.1:$port/page.json"
bytes=$(stat -c %s "$work/www/page.json")

gcc -O2 -o "$work/curl-loop" "$here/curl-loop.c" -lcurl
(cd "$root" && swift build -c release --product contract >/dev/null && swift build -c release --product HTTPClientBenchmark >/dev/null)
contract="$root/.build/release/contract"

best() { sort -n | tail -1; }
wrk_rate=$(for i in 1 2 3; do wrk -t1 -c"$inflight" -d5s "$url" | awk '/Requests\/sec/ {print int($2)}'; done | best)
curl_rate=$(for i in 1 2 3; do "$work/curl-loop" "$url" "$cases" "$inflight"; done | best)
client_rate=$(for i in 1 2 3; do "$root/.build/release/HTTPClientBenchmark" "$url" "$cases" "$inflight"; done | best)
verify_rates=()
peak=0
for i in 1 2 3; do
    /usr/bin/time -f "%M" -o "$work/rss" "$contract" verify --base-url "http://127.0.0.1:$port" --concurrency "$inflight" \
        --color never "$work/contracts" > "$work/out.txt" || { echo "contract verify failed:"; grep -v "^PASS" "$work/out.txt" | head -20; exit 1; }
    # The summary line: "N cases: N passed, 0 failed in 1.23 s"
    seconds=$(tail -1 "$work/out.txt" | awk '{ if ($NF == "ms") print $(NF-1) / 1000; else print $(NF-1) }')
    verify_rates+=("$(python3 -c "print(int($cases / $seconds))")")
    rss=$(cat "$work/rss"); [ "$rss" -gt "$peak" ] && peak=$rss
done
grep -q " 0 failed" "$work/out.txt" || { echo "verify reported failures:"; tail -5 "$work/out.txt"; exit 1; }
verify_rate=$(printf '%s\n' "${verify_rates[@]}" | best)
small=$(( cases / 10 ))
python3 "$here/make-data.py" "$work/small" "$small"
/usr/bin/time -f "%M" -o "$work/rss-small" "$contract" verify --base-url "http://127.0.0.1:$port" --concurrency "$inflight" \
    --color never "$work/small/contracts" > /dev/null

echo "endpoint: $url ($bytes bytes of JSON, schema with \$ref, formats, patterns), $inflight in flight, best of 3"
printf '%-34s %10s %8s\n' "" "req/s" "ratio"
printf '%-34s %10s %8s\n' "wrk (loopback limit)" "$wrk_rate" "1.00"
printf '%-34s %10s %8s\n' "bare libcurl multi loop" "$curl_rate" "$(python3 -c "print(f'{$curl_rate/$wrk_rate:.2f}')")"
printf '%-34s %10s %8s\n' "ContractHTTP alone (no checks)" "$client_rate" "$(python3 -c "print(f'{$client_rate/$wrk_rate:.2f}')")"
printf '%-34s %10s %8s\n' "contract verify ($cases cases)" "$verify_rate" "$(python3 -c "print(f'{$verify_rate/$wrk_rate:.2f}')")"
echo "ContractHTTP / bare curl loop: $(python3 -c "print(f'{$client_rate/$curl_rate:.2f}')")"
echo "contract verify / bare curl loop: $(python3 -c "print(f'{$verify_rate/$curl_rate:.2f}')")"
echo "peak memory: $(( peak / 1024 )) MiB for $cases cases, $(( $(cat "$work/rss-small") / 1024 )) MiB for $small cases"
