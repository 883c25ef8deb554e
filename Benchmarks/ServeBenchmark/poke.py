"""Sends REQUESTS requests, spread over COUNT GET endpoints of an imported tree, to a running
`contract serve` (one keep-alive connection), and prints how many got each status.

Usage: poke.py URL CONTRACTS-DIR [COUNT=5] [REQUESTS=500] [TARGETS-FILE]
TARGETS-FILE, when given, gets the endpoints asked, one a line: the target, then each header
as `Name: value`, separated by tabs (for a wrk run of one of them).
The endpoints are the tree's GET contracts spread evenly by name; each is asked as its first case
asks (its path parameters and query), with any value for the headers it requires.
"""
import collections
import glob
import http.client
import json
import os
import sys
import urllib.parse

url, tree = sys.argv[1], sys.argv[2]
count = int(sys.argv[3]) if len(sys.argv) > 3 else 5
total = int(sys.argv[4]) if len(sys.argv) > 4 else 500

targets = []
for path in sorted(glob.glob(os.path.join(tree, "*.json"))):
    contract = json.load(open(path, encoding="utf-8"))
    request = contract.get("request", {})
    if request.get("method") != "GET" or not contract.get("cases"):
        continue
    case = contract["cases"][0].get("request", {})
    params = {**request.get("pathParams", {}), **case.get("pathParams", {})}
    target = request["path"]
    for name, value in params.items():
        target = target.replace("{" + name + "}", urllib.parse.quote(str(value), safe=""))
    if "{" in target:
        continue
    query = {**request.get("query", {}), **case.get("query", {})}
    if query:
        target += "?" + urllib.parse.urlencode(query, doseq=True)
    headers = {name: "bench" for name in {**request.get("headers", {}), **case.get("headers", {})}}
    headers["Accept"] = "application/json"
    targets.append((target, headers))
step = max(1, len(targets) // count)
chosen = targets[::step][:count]

parts = urllib.parse.urlsplit(url)
connection = http.client.HTTPConnection(parts.hostname, parts.port)
statuses = collections.Counter()
for index in range(total):
    target, headers = chosen[index % len(chosen)]
    connection.request("GET", target, headers=headers)
    response = connection.getresponse()
    response.read()
    statuses[response.status] += 1
print(f"{total} requests to {len(chosen)} endpoints:", ", ".join(f"{n} x {s}" for s, n in sorted(statuses.items())))
for target, _ in chosen:
    print("  GET", target)
if len(sys.argv) > 5:
    with open(sys.argv[5], "w", encoding="utf-8") as f:
        for target, headers in chosen:
            f.write("\t".join([target] + [f"{name}: {value}" for name, value in headers.items()]) + "\n")
