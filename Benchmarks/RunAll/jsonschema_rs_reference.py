"""The reference of the validation row: jsonschema-rs timed exactly as ../shared/bench/reference.sh
times it (draft 2020-12, formats asserted, `is_valid` on values json.loads made beforehand, best
of three), on the data that script wrote into DIR. Prints docs/s; exits 1 if a verdict disagrees
with docs.expected.jsonl. Run with the venv reference.sh made (DIR/venv/bin/python).

Usage: jsonschema_rs_reference.py DIR
"""
import json
import sys
import time
from importlib.metadata import version

import jsonschema_rs

directory = sys.argv[1]
schema = json.load(open(f"{directory}/schema.json"))
docs = [json.loads(line) for line in open(f"{directory}/docs.jsonl", encoding="utf-8")]
expected = [json.loads(line)["valid"] for line in open(f"{directory}/docs.expected.jsonl")]
validator = jsonschema_rs.Draft202012Validator(schema, validate_formats=True)
best = None
for _ in range(3):
    start = time.perf_counter()
    verdicts = [validator.is_valid(doc) for doc in docs]
    elapsed = time.perf_counter() - start
    best = elapsed if best is None else min(best, elapsed)
print(f"jsonschema-rs {version('jsonschema_rs')}: {int(len(docs) / best)} docs/s")
sys.exit(0 if verdicts == expected else 1)
