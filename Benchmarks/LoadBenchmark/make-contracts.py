"""Writes a contracts tree with one large contract of N cases into DIR, for the load benchmark.

Shapes (argument 3):
  repeated  every case GETs one product and checks status, a header pattern and a `$ref` schema,
            as `Benchmarks/VerifyBenchmark` writes them (100,000 cases are 22 MB): the shape of a
            generated contract, whose cases differ only in name.
  varied    every case differs: its own path parameter, query, request header with a placeholder,
            status, header matchers and an example body, so little of one case repeats another's.

Pretty-printed with one space of indent, as json.dump(indent=1) writes it."""
import json, os, sys

out, count, shape = sys.argv[1], int(sys.argv[2]), sys.argv[3] if len(sys.argv) > 3 else "repeated"
os.makedirs(f"{out}/schemas", exist_ok=True)
# The cases' responses refer to it; its content hardly matters to loading.
product = {"type": "object", "required": ["id", "sku", "price"], "properties": {
    "id": {"type": "integer", "minimum": 1}, "sku": {"type": "string", "pattern": "^SKU-[0-9]+$"},
    "price": {"type": "number", "minimum": 0}, "createdAt": {"type": "string", "format": "date-time"}}}
with open(f"{out}/schemas/product.json", "w") as f:
    json.dump(product, f, indent=1)


def repeated(i):
    return {"name": f"case-{i:05d}", "response": {
        "status": 200, "headers": {"Content-Type": {"pattern": "^application/json"}}, "schema": {"$ref": "schemas/product.json"}}}


def varied(i):
    return {
        "name": f"case-{i:06d}",
        "summary": f"Product {i} in the {['spring', 'summer', 'autumn', 'winter'][i % 4]} catalogue",
        "request": {
            "pathParams": {"id": i + 1},
            "query": {"fields": ["sku", "price"] if i % 2 else "all", "page": i % 7 + 1},
            "headers": {"X-Request-Id": f"req-{i:08x}", "Authorization": "Bearer ${env:TOKEN}"},
        },
        "response": {
            "status": [200, 203][i % 2],
            "headers": {"Content-Type": {"pattern": "^application/json"}, "X-Trace": {"present": i % 3 == 0}},
            "schema": {"$ref": "schemas/product.json"},
            "example": {
                "id": i + 1, "sku": f"SKU-{100000 + i}", "name": f"Product {i}", "price": round(1.25 + i * 0.37, 2),
                "currency": ["KRW", "USD", "EUR"][i % 3], "createdAt": f"2026-{i % 12 + 1:02d}-{i % 28 + 1:02d}T09:30:00Z",
                "tags": [f"tag{i % 10}", f"group{i % 13}"],
            },
        },
    }


make = {"repeated": repeated, "varied": varied}[shape]
path = "/products/{id}" if shape == "varied" else "/product.json"
contract = {
    "id": f"bench.{shape}", "request": {"method": "GET", "path": path, "headers": {"Accept": "application/json"}},
    "cases": [make(i) for i in range(count)],
}
with open(f"{out}/{shape}.json", "w") as f:
    json.dump(contract, f, indent=1)
