"""Parse-speed references for Benchmarks/ValidationBenchmark, on the same documents in the same
run: Python's json.loads and, when installed, orjson.loads (Rust), each line of docs.jsonl parsed
to Python objects, best of three. Usage: python3 parse-reference.py /tmp/contract-bench"""
import sys, time

directory = sys.argv[1] if len(sys.argv) > 1 else "/tmp/contract-bench"
lines = open(f"{directory}/docs.jsonl", "rb").read().split(b"\n")
lines = [line for line in lines if line]
megabytes = sum(len(line) for line in lines) / 1e6
parsers = [("python json.loads", __import__("json").loads)]
try:
    import orjson
    parsers.append((f"orjson {orjson.__version__} loads", orjson.loads))
except ImportError:
    pass
for name, loads in parsers:
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for line in lines:
            loads(line)
        best = min(best, time.perf_counter() - start)
    print(f"{name + ':':26}{megabytes / best:.1f} MB/s")
