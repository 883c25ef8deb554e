"""Writes the verify benchmark's data into DIR: two static JSON responses for nginx to serve (a
page of 20 products, and one product), and for each a contracts tree with N cases that GET it and
validate it against a schema with formats and patterns, as a real API contract would:
DIR/contracts-page and DIR/contracts-product."""
import json, os, sys

out, cases = sys.argv[1], int(sys.argv[2])
os.makedirs(f"{out}/www", exist_ok=True)
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
with open(f"{out}/www/product.json", "w") as f:
    json.dump(products[0], f)

def write_tree(name, path, schema_ref, schema_doc):
    os.makedirs(f"{out}/contracts-{name}/schemas", exist_ok=True)
    with open(f"{out}/contracts-{name}/schemas/{name}.json", "w") as f:
        json.dump(schema_doc, f, indent=1)
    contract = {
        "id": f"bench.{name}", "request": {"method": "GET", "path": path, "headers": {"Accept": "application/json"}},
        "cases": [{"name": f"case-{i:05d}", "response": {
            "status": 200, "headers": {"Content-Type": {"pattern": "^application/json"}}, "schema": {"$ref": schema_ref}}}
            for i in range(cases)],
    }
    with open(f"{out}/contracts-{name}/{name}.json", "w") as f:
        json.dump(contract, f, indent=1)

write_tree("page", "/page.json", "schemas/page.json", schema)
product_schema = dict(schema["$defs"]["Product"])
write_tree("product", "/product.json", "schemas/product.json", product_schema)
