#!/usr/bin/env bash
# `contract serve` under load, beside two references measured in the same run, on the same
# request targets and bytes:
#   ceiling  a minimal SwiftNIO HTTP/1.1 server (Ceiling/, the same swift-nio version) answering
#            with the bytes captured from `contract serve` (status, headers, body): no routing
#            beyond one dictionary look-up, no checks, no journal;
#   pact     Pact's stub server (`pact stub`, the Rust binary that PyPI's pact-python-cli ships),
#            serving a pact file of the same interactions (make-pact.py writes it from the same
#            captured answers; it adds its own Date and Access-Control-Allow-Origin headers).
# Targets: GET /api/products/1 (the example's 129-byte product) and GET /api/catalogue (a page
# of 38 products, 5,103 bytes; contracts/bench/catalogue.json, laid beside the example contracts).
# wrk: 16 connections, 2 threads (one a core), --latency; ROUNDS rounds of SECONDS-long runs after
# a warm-up, the servers' order reversed every other round. Each figure is the median of the
# rounds with their min and max; the ratios are taken per round (the pair measured side by side)
# and then summarised. "CPU us/req" is the server process's own user + system time (from
# /proc/PID/stat) over the requests wrk counted: the client and the rest of the machine left out.
# Then memory: VmHWM of `contract serve` after the load, and of a `contract serve` of Cloudflare's
# imported API (1,515 cases) after 500 requests to 5 of its endpoints; then one of those
# endpoints under the same wrk load (what a large route table costs each request).
#
# Usage: Benchmarks/ServeBenchmark/run.sh            (ROUNDS=5 SECONDS_PER_RUN=5 by default)
#   CLOUDFLARE=path/to/openapi.json  the document to import (default ../shared/openapi-corpus/…)
#   CONTRACT=path/to/contract        a prebuilt binary instead of building the release one
set -euo pipefail
rounds=${ROUNDS:-5}
seconds=${SECONDS_PER_RUN:-5}
connections=16
threads=2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cloudflare=${CLOUDFLARE:-$root/../shared/openapi-corpus/cloudflare/openapi.json}

command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
# Pact's stub server: PyPI's pact-python-cli ships it inside its `pact` binary, as `pact stub`.
venv="$here/.build-pact"
[ -x "$venv/bin/pact" ] || { python3 -m venv "$venv" && "$venv/bin/pip" install -q pact-python-cli; }
pact="$venv/bin/pact"

if [ -z "${CONTRACT:-}" ]; then
    (cd "$root" && nice -n 10 swift build -c release --product contract > /dev/null)
    contract="$root/.build/release/contract"
else
    contract=$CONTRACT
fi
(cd "$here/Ceiling" && nice -n 10 swift build -c release > /dev/null)
ceiling="$here/Ceiling/.build/release/Ceiling"
nio_version() { python3 -c 'import json,sys; print(next(p["state"].get("version") for p in json.load(open(sys.argv[1]))["pins"] if p["identity"] == "swift-nio"))' "$1"; }
root_nio=$(nio_version "$root/Package.resolved")
ceiling_nio=$(nio_version "$here/Ceiling/Package.resolved")
[ "$root_nio" = "$ceiling_nio" ] || { echo "swift-nio differs: $root_nio (root) and $ceiling_nio (Ceiling)"; exit 1; }

work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# start NAME COMMAND...: runs it in the background (its pid kept for the trap); `started NAME`
# then waits for the first line of its output (the URL, for serve and the ceiling).
start() {
    local name=$1; shift
    "$@" > "$work/$name.out" 2> "$work/$name.err" &
    pids+=("$!")
    echo "$!" > "$work/$name.pid"
}
started() {
    for _ in $(seq 1200); do
        [ -s "$work/$1.out" ] && { head -1 "$work/$1.out"; return; }
        kill -0 "$(cat "$work/$1.pid")" 2>/dev/null || break
        sleep 0.1
    done
    echo "$1 did not start:" >&2; cat "$work/$1.err" >&2; exit 1
}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
hwm() { awk '/VmHWM/ {printf "%.1f", $2 / 1024}' "/proc/$1/status"; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# The tree served: the example contracts with the benchmark's page beside them.
cp -r "$root/contracts" "$work/contracts"
cp -r "$here/contracts/." "$work/contracts/"
start serve "$contract" serve "$work/contracts" --port 0 --quiet --no-watch
serve_url=$(started serve)
targets=(/api/products/1 /api/catalogue)
labels=(small page)
answers=()
for i in 0 1; do
    curl -sf -D "$work/${labels[$i]}.head" -o "$work/${labels[$i]}.body" -H 'Accept: application/json' "$serve_url${targets[$i]}"
    answers+=("${targets[$i]}" "$work/${labels[$i]}.head" "$work/${labels[$i]}.body")
done
start ceiling "$ceiling" 0 "${answers[@]}"
ceiling_url=$(started ceiling)
python3 "$here/make-pact.py" "$work/pact.json" "${answers[@]}"
pact_port=$(free_port)
start pact "$pact" stub -f "$work/pact.json" -p "$pact_port" -l error
pact_url="http://127.0.0.1:$pact_port"
for _ in $(seq 100); do curl -sf -o /dev/null "$pact_url${targets[0]}" -H 'Accept: application/json' && break; sleep 0.1; done

servers=(serve ceiling pact)
declare -A url=([serve]=$serve_url [ceiling]=$ceiling_url [pact]=$pact_url)
declare -A pid=([serve]=$(cat "$work/serve.pid") [ceiling]=$(cat "$work/ceiling.pid") [pact]=$(cat "$work/pact.pid"))
# Every server answers both targets with the same status and body bytes as serve.
for s in "${servers[@]}"; do
    for i in 0 1; do
        status=$(curl -s -o "$work/check.body" -w '%{http_code}' -H 'Accept: application/json' "${url[$s]}${targets[$i]}")
        [ "$status" = 200 ] && cmp -s "$work/check.body" "$work/${labels[$i]}.body" || {
            echo "$s answers ${targets[$i]} with $status and other bytes than contract serve"; exit 1; }
    done
done

# load SERVER LABEL TARGET DURATION [-H HEADER...]: one wrk run; appends
# "round server label req/s p99-ms cpu-us/req" to results.txt.
load() {
    local s=$1 label=$2 target=$3 duration=$4 before after
    shift 4
    before=$(cpu_ticks "${pid[$s]}")
    wrk -t"$threads" -c"$connections" -d"$duration" --latency -H 'Accept: application/json' "$@" "${url[$s]}$target" > "$work/wrk.txt"
    after=$(cpu_ticks "${pid[$s]}")
    if grep -q 'Non-2xx' "$work/wrk.txt"; then echo "$s $target:"; cat "$work/wrk.txt"; exit 1; fi
    grep -q 'Socket errors' "$work/wrk.txt" && echo "round $round, $s $target: $(grep 'Socket errors' "$work/wrk.txt")" >> "$work/notes.txt"
    awk -v r="$round" -v s="$s" -v l="$label" -v ticks=$(( after - before )) -v hz="$(getconf CLK_TCK)" '
        / 99%/ { v = $2; if (v ~ /us$/) p = v / 1000; else if (v ~ /ms$/) p = v + 0; else p = v * 1000 }
        /requests in/ { n = $1 }
        /Requests\/sec/ { rps = $2 }
        END { printf "%s %s %s %.0f %.3f %.1f\n", r, s, l, rps, p, ticks * 1e6 / hz / n }' "$work/wrk.txt" >> "$work/results.txt"
}

echo "contract serve against a SwiftNIO ceiling and Pact's stub server ($("$pact" stub --version 2>&1 | head -1)), swift-nio $root_nio"
echo "wrk -t$threads -c$connections -d${seconds}s --latency, $rounds rounds after a warm-up; $(nproc) cores, $(uname -m)"
round=warmup
for s in "${servers[@]}"; do for i in 0 1; do load "$s" "${labels[$i]}" "${targets[$i]}" 2s; done; done
: > "$work/results.txt"
for round in $(seq "$rounds"); do
    order=("${servers[@]}")
    (( round % 2 == 0 )) && order=(pact ceiling serve)
    for i in 0 1; do for s in "${order[@]}"; do load "$s" "${labels[$i]}" "${targets[$i]}" "${seconds}s"; done; done
done
serve_after_load=$(hwm "${pid[serve]}")
ceiling_after_load=$(hwm "${pid[ceiling]}")
pact_after_load=$(hwm "${pid[pact]}")

python3 - "$work/results.txt" "$(wc -c < "$work/small.body")" "$(wc -c < "$work/page.body")" <<'PY'
import collections, statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
sizes = {"small": sys.argv[2], "page": sys.argv[3]}
data = collections.defaultdict(dict)  # (label, server) -> round -> (rps, p99, cpu)
for r, s, label, rps, p99, cpu in rows:
    data[(label, s)][r] = (float(rps), float(p99), float(cpu))
def summary(values, fmt):
    return f"{fmt.format(statistics.median(values))} [{fmt.format(min(values))}-{fmt.format(max(values))}]"
names = {"serve": "contract serve", "ceiling": "ceiling (NIO, fixed bytes)", "pact": "pact stub"}
titles = {"small": "GET /api/products/1", "page": "GET /api/catalogue"}
print(f"median [min-max] of {len(data[('small', 'serve')])} rounds")
print(f"{'':32} {'req/s':>22} {'p99 ms':>20} {'CPU us/req':>20}")
for label in ("small", "page"):
    print(f"{titles[label]} ({sizes[label]} bytes of JSON)")
    for s in ("serve", "ceiling", "pact"):
        v = list(data[(label, s)].values())
        print(f"  {names[s]:30} {summary([x[0] for x in v], '{:,.0f}'):>22} {summary([x[1] for x in v], '{:.2f}'):>20} {summary([x[2] for x in v], '{:.1f}'):>20}")
    for ref in ("ceiling", "pact"):
        rounds = data[(label, "serve")].keys() & data[(label, ref)].keys()
        rps = [data[(label, "serve")][r][0] / data[(label, ref)][r][0] for r in rounds]
        cpu = [data[(label, ref)][r][2] / data[(label, "serve")][r][2] for r in rounds]
        print(f"  {'serve / ' + ref:30} {summary(rps, '{:.2f}'):>22} {'':>20} {summary(cpu, '{:.2f}'):>20}")
print("(the CPU ratios are the reference's CPU per request over serve's: above 1, serve costs less)")
PY
[ -s "$work/notes.txt" ] && cat "$work/notes.txt"
echo "peak RSS after the load (VmHWM): contract serve $serve_after_load MiB, ceiling $ceiling_after_load MiB, pact stub $pact_after_load MiB"

# Cloudflare: 1,515 cases imported, served, then 500 requests to 5 GET endpoints.
if [ -f "$cloudflare" ]; then
    "$contract" import openapi "$cloudflare" --out "$work/cloudflare" > "$work/import.out" 2>&1 || { cat "$work/import.out"; exit 1; }
    start cloudflare "$contract" serve "$work/cloudflare" --port 0 --quiet --no-watch
    cloudflare_url=$(started cloudflare)
    cf_pid=$(cat "$work/cloudflare.pid")
    loaded=$(hwm "$cf_pid")
    python3 "$here/poke.py" "$cloudflare_url" "$work/cloudflare" 5 500 "$work/cloudflare-targets.tsv" > "$work/poke.out"
    poked=$(head -1 "$work/poke.out")
    echo "contract serve of Cloudflare's API ($(grep -m1 -o 'serving [0-9]* contracts ([0-9]* cases)' "$work/cloudflare.err")): VmHWM $loaded MiB loaded, $(hwm "$cf_pid") MiB after $poked"
    # One of those endpoints under the same wrk load, for what the number of routes costs.
    IFS=$'\t' read -r -a fields < "$work/cloudflare-targets.tsv"
    headers=()
    for field in "${fields[@]:1}"; do headers+=(-H "$field"); done
    pid[cloudflare]=$cf_pid
    url[cloudflare]=$cloudflare_url
    round=cloudflare
    load cloudflare one "${fields[0]}" "${seconds}s" "${headers[@]}"
    echo "$(hwm "$cf_pid") MiB after wrk on GET ${fields[0]}:"
    tail -1 "$work/results.txt" | awk '{ printf "  %s req/s, p99 %.2f ms, %s CPU us/req (the example: see above)\n", $4, $5, $6 }'
else
    echo "no $cloudflare: Cloudflare's memory not measured"
fi
