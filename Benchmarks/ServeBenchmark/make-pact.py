"""A pact file whose interactions answer as `contract serve` answered: for each request target,
the status, headers and JSON body captured from it with `curl -D HEAD -o BODY`.

Usage: make-pact.py OUT.json TARGET HEAD-FILE BODY-FILE [TARGET HEAD-FILE BODY-FILE ...]
"""
import json
import sys
from urllib.parse import parse_qs, urlsplit

out, rest = sys.argv[1], sys.argv[2:]
interactions = []
for target, head_file, body_file in zip(rest[0::3], rest[1::3], rest[2::3]):
    lines = open(head_file, encoding="utf-8").read().replace("\r\n", "\n").strip().split("\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name.lower() not in ("content-length", "connection", "transfer-encoding"):
            headers[name] = value.strip()
    parts = urlsplit(target)
    request = {"method": "GET", "path": parts.path, "headers": {"Accept": "application/json"}}
    if parts.query:
        request["query"] = parse_qs(parts.query)
    interactions.append({
        "description": f"GET {target}",
        "request": request,
        "response": {"status": status, "headers": headers, "body": json.load(open(body_file, encoding="utf-8"))},
    })
pact = {
    "consumer": {"name": "serve-benchmark"},
    "provider": {"name": "example-api"},
    "interactions": interactions,
    "metadata": {"pactSpecification": {"version": "3.0.0"}},
}
with open(out, "w", encoding="utf-8") as f:
    json.dump(pact, f, indent=2)
