"""Writes what `contract coverage` reads at a large team's scale, for the coverage benchmark:

  DIR/contracts   CONTRACTS contracts of CASES_PER cases each (an endpoint per contract, cases that
                  differ in their path parameter and expected status), 40,000 cases by default;
  DIR/usage       usage files of TESTS tests in PROCESSES test processes (one file each, as the
                  recorder writes them: a header line, then a line per request), each test sending
                  three requests to cases spread over the tree, one test in 50 sending a request
                  that breaks its contract and one in 100 a request no fixture matches.

The verify reports come from a real run (run.sh verifies `contract serve` of the same tree)."""
import json, os, random, sys

out = sys.argv[1]
contracts, per, tests, processes = (int(v) for v in sys.argv[2:6])
random.seed(7)
os.makedirs(f"{out}/contracts/schemas", exist_ok=True)
with open(f"{out}/contracts/schemas/item.json", "w") as f:
    json.dump({"type": "object", "required": ["id", "name"], "properties": {
        "id": {"type": "integer"}, "name": {"type": "string"}, "tags": {"type": "array", "items": {"type": "string"}}}}, f, indent=1)
ids = []
for c in range(contracts):
    folder = f"{out}/contracts/area{c // 100:03d}"
    os.makedirs(folder, exist_ok=True)
    cases = []
    for k in range(per):
        found = k % 5 != 4
        case = {"name": f"case-{k:02d}", "request": {"pathParams": {"id": k + 1 if found else 900000 + k}},
                "response": {"status": 200 if found else 404}}
        if found:
            case["response"]["schema"] = {"$ref": "../schemas/item.json"}
            case["response"]["example"] = {"id": k + 1, "name": f"item {c}-{k}", "tags": ["a", "b"]}
        cases.append(case)
        ids.append((f"items{c:05d}.get", f"case-{k:02d}", f"/api/items{c:05d}/{k + 1}"))
    contract = {"id": f"items{c:05d}.get", "request": {"method": "GET", "path": f"/api/items{c:05d}/{{id}}",
                "parameters": {"path": {"id": {"schema": {"type": "integer", "minimum": 1}}}}}, "cases": cases}
    with open(f"{folder}/items{c:05d}.json", "w") as f:
        json.dump(contract, f, indent=1)

os.makedirs(f"{out}/usage", exist_ok=True)
per_process = (tests + processes - 1) // processes
for p in range(processes):
    lines = [json.dumps({"format": "contract-usage", "process": 1000 + p, "recorder": "ContractTesting", "version": 1}, separators=(",", ":"))]
    for t in range(p * per_process, min(tests, (p + 1) * per_process)):
        test = f"Feature{t % 40:02d}Tests/testScenario{t:05d}"
        for r in range(3):
            contract, case, path = ids[random.randrange(len(ids))]
            record = {"outcome": "answered", "method": "GET", "path": path, "contract": contract, "case": case, "test": test}
            if r == 2 and t % 50 == 0:
                record["outcome"] = "invalid"
                record["violations"] = [{"place": "path parameter 'id'", "keyword": "minimum", "message": "expected at least 1, found 0"}]
            if r == 2 and t % 100 == 1:
                record = {"outcome": "unmatched", "method": "GET", "path": path.replace("/api/", "/v2/"), "nearest": f"{contract}/{case}",
                          "reason": "the path differs at 'v2'", "test": test}
            lines.append(json.dumps(record, separators=(",", ":"), sort_keys=True))
    with open(f"{out}/usage/usage-{1000 + p}-{p:08x}.jsonl", "w") as f:
        f.write("\n".join(lines) + "\n")
