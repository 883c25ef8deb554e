#!/usr/bin/env python3
"""An OpenAPI 3.0 document with N operations, each answering one component schema; each
component refers to the next (a chain), the worst shape for compiling references.
Usage: make-document.py N > api.json"""
import json
import sys

n = int(sys.argv[1])
paths = {}
schemas = {}
for i in range(n):
    paths[f"/r{i}/{{id}}"] = {"get": {
        "operationId": f"get{i}",
        "parameters": [{"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}}],
        "responses": {
            "200": {"description": "ok", "content": {"application/json": {
                "schema": {"$ref": f"#/components/schemas/S{i}"}, "example": {"id": 1}}}},
            "404": {"description": "not found"},
        },
    }}
    properties = {"id": {"type": "integer"}}
    if i + 1 < n:
        properties["next"] = {"$ref": f"#/components/schemas/S{i + 1}"}
    schemas[f"S{i}"] = {"type": "object", "properties": properties}
json.dump({"openapi": "3.0.3", "info": {"title": "chain", "version": "1"}, "paths": paths,
           "components": {"schemas": schemas}}, sys.stdout)
