"""A pact file of N interactions that each GET PATH and expect what the verify benchmark's contract
case expects of it: status 200, a Content-Type matching ^application/json, and the body's shape,
every member matched by type (arrays by the type of their first item), which is how a Pact
consumer test describes such a body. The references of the verifier row in Benchmarks/run-all.

Usage: make-verifier-pact.py OUT.json BODY.json PATH N
"""
import json
import sys

out, body_file, path, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
body = json.load(open(body_file, encoding="utf-8"))
rules = {}


def by_type(place, value):
    """Pact's body matching rules for VALUE at PLACE: each value by type, arrays of any length."""
    if isinstance(value, dict):
        rules[place] = {"matchers": [{"match": "type"}]}
        for name, member in value.items():
            by_type(f"{place}.{name}", member)
    elif isinstance(value, list):
        rules[place] = {"matchers": [{"match": "type", "min": 0}]}
        if value:
            by_type(f"{place}[*]", value[0])
    else:
        rules[place] = {"matchers": [{"match": "type"}]}


by_type("$", body)
interactions = [{
    "description": f"case-{i:05d}",
    "request": {"method": "GET", "path": path, "headers": {"Accept": "application/json"}},
    "response": {
        "status": 200,
        "headers": {"Content-Type": "application/json"},
        "body": body,
        "matchingRules": {
            "body": rules,
            "header": {"Content-Type": {"matchers": [{"match": "regex", "regex": "^application/json"}]}},
        },
    },
} for i in range(count)]
pact = {
    "consumer": {"name": "run-all"},
    "provider": {"name": "nginx"},
    "interactions": interactions,
    "metadata": {"pactSpecification": {"version": "3.0.0"}},
}
with open(out, "w", encoding="utf-8") as f:
    json.dump(pact, f, indent=1)
