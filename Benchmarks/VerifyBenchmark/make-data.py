"""Writes the verify benchmark's data into DIR: a static JSON response (a page of products) for
nginx to serve, and a contracts tree with N cases that all GET it and validate it against a
schema with formats and patterns, as a real API contract would."""
import json, os, sys

out, cases = sys.argv[1], int(sys.argv[2])
os.makedirs(f"{out}/www", exist_ok=True)
os.makedirs(f"{out}/contracts/schemas", exist_ok=True)
products = [{
    "id": i, "sku": f"SKU-{1000 + i}", "name": f"Product {i}", "price": round(1.5 + i * 0.25, 2), "currency": "KRW",
    "createdAt": "2026-01-05T09:30:00Z", "url": f"https://shop.example.com/products/{i}",
    "tags": ["stationery", "office"], "vendor": {"id": 7, "name": "Morning Glory", "email": "sales@morning-glory.example"},
} for i in range(1, 21)]
with open(f"{out}/www/page.json", "w") as f:
    json.dump({"data": products, "page": 1, "total": 240}, f)
schema = {
    "type": "object", "required": ["data", "page", "total"], "additionalProperties": False,
    "properties": {
        "data": {"type": "array", "items": {"$ref": "#/$defs/Product"}},
        "page": {"type": "integer", "minimum": 1}, "total": {"type": "integer", "minimum": 0},
    },
    "$defs": {"Product": {
        "type": "object", "required": ["id", "sku", "name", "price", "currency", "createdAt"], "additionalProperties": False,
        "properties": {
            "id": {"type": "integer", "minimum": 1}, "sku": {"type": "string", "pattern": "^SKU-[0-9]+$"},
            "name": {"type": "string", "minLength": 1}, "price": {"type": "number", "minimum": 0},
            "currency": {"enum": ["KRW", "USD", "EUR"]}, "createdAt": {"type": "string", "format": "date-time"},
            "url": {"type": "string", "format": "uri"}, "tags": {"type": "array", "items": {"type": "string"}},
            "vendor": {"type": "object", "required": ["id", "name"], "properties": {
                "id": {"type": "integer"}, "name": {"type": "string"}, "email": {"type": "string", "format": "email"}}},
        },
    }},
}
with open(f"{out}/contracts/schemas/page.json", "w") as f:
    json.dump(schema, f, indent=1)
contract = {
    "id": "bench.page", "request": {"method": "GET", "path": "/page.json", "headers": {"Accept": "application/json"}},
    "cases": [{"name": f"case-{i:05d}", "response": {
        "status": 200, "headers": {"Content-Type": {"pattern": "^application/json"}}, "schema": {"$ref": "schemas/page.json"}}}
        for i in range(cases)],
}
with open(f"{out}/contracts/page.json", "w") as f:
    json.dump(contract, f, indent=1)
