/// The JSON Schema of contract format v1, for editors: `contract import openapi` writes it beside
/// the contracts it makes (`.contract-v1.schema.json`) and points each contract's `$schema` at it,
/// so completion and checking work without a copy of this repository. The same text is
/// `docs/contract-v1.schema.json` (a test keeps the two equal).
public enum ContractFormatSchema {
    /// The file name the import writes: hidden, so `contract lint` does not take it for a contract.
    public static let fileName = ".contract-v1.schema.json"

    public static let text = #"""
{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://contract.dev/schema/contract-v1.json",
  "title": "contract file, format v1",
  "description": "One endpoint (method and path template) and the cases run against it. See docs/contract-format.md.",
  "type": "object",
  "required": ["id", "request", "cases"],
  "additionalProperties": false,
  "properties": {
    "$schema": { "type": "string", "description": "Editor hint: the path of this JSON Schema. Ignored by the tool." },
    "id": { "$ref": "#/$defs/identifier", "description": "Unique across the contracts tree, e.g. 'products.get'." },
    "summary": { "type": "string", "description": "One line on what the endpoint does." },
    "description": { "type": "string", "description": "Longer notes." },
    "tags": { "$ref": "#/$defs/tags" },
    "request": { "$ref": "#/$defs/endpoint" },
    "cases": {
      "type": "array",
      "minItems": 1,
      "description": "The exchanges run against the endpoint; names are unique within the contract.",
      "items": { "$ref": "#/$defs/case" }
    }
  },
  "$defs": {
    "identifier": {
      "type": "string",
      "pattern": "^[A-Za-z0-9][A-Za-z0-9._-]*$",
      "description": "Letters, digits, '.', '_' and '-', starting with a letter or digit."
    },
    "variableName": { "type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]*$" },
    "tags": {
      "type": "array",
      "uniqueItems": true,
      "items": { "type": "string" },
      "description": "Labels for filtering runs (contract verify --tag)."
    },
    "method": {
      "enum": ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
      "description": "The HTTP method, in capitals."
    },
    "path": {
      "type": "string",
      "pattern": "^/[^?#]*$",
      "description": "Starts with '/'; '{name}' marks a placeholder filled from 'pathParams'. No query string: use 'query'."
    },
    "template": {
      "type": "string",
      "description": "Text that may hold '${env:NAME}' (a secret from the environment, never printed) and '${capture:NAME}' (a value captured by a setup step). '$${' is a literal '${'."
    },
    "scalar": { "type": ["string", "number", "boolean"] },
    "headerName": { "type": "string", "pattern": "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$" },
    "requestHeaders": {
      "type": "object",
      "description": "Header name to value; names are case-insensitive.",
      "propertyNames": { "$ref": "#/$defs/headerName" },
      "additionalProperties": { "$ref": "#/$defs/template" }
    },
    "caseHeaders": {
      "type": "object",
      "description": "Merged over the endpoint's headers; null removes one.",
      "propertyNames": { "$ref": "#/$defs/headerName" },
      "additionalProperties": { "oneOf": [{ "$ref": "#/$defs/template" }, { "type": "null" }] }
    },
    "query": {
      "type": "object",
      "description": "Query parameters; an array repeats the parameter.",
      "additionalProperties": {
        "oneOf": [{ "$ref": "#/$defs/scalar" }, { "type": "array", "items": { "$ref": "#/$defs/scalar" } }]
      }
    },
    "caseQuery": {
      "type": "object",
      "description": "Merged over the endpoint's query; null removes a parameter.",
      "additionalProperties": {
        "oneOf": [
          { "$ref": "#/$defs/scalar" },
          { "type": "array", "items": { "$ref": "#/$defs/scalar" } },
          { "type": "null" }
        ]
      }
    },
    "pathParams": {
      "type": "object",
      "description": "A value for every '{placeholder}' of the path, and nothing else.",
      "propertyNames": { "$ref": "#/$defs/variableName" },
      "additionalProperties": { "$ref": "#/$defs/scalar" }
    },
    "jsonSchema": {
      "type": ["object", "boolean"],
      "description": "A JSON Schema (draft 2020-12 unless '$schema' says draft 7), inline or {\"$ref\": \"../schemas/x.json\"}."
    },
    "endpoint": {
      "type": "object",
      "description": "The request every case of the contract sends.",
      "required": ["method", "path"],
      "additionalProperties": false,
      "properties": {
        "method": { "$ref": "#/$defs/method" },
        "path": { "$ref": "#/$defs/path" },
        "headers": { "$ref": "#/$defs/requestHeaders" },
        "query": { "$ref": "#/$defs/query" }
      }
    },
    "caseRequest": {
      "type": "object",
      "description": "The values this case sends; 'body' (JSON) and 'text' (raw) exclude each other.",
      "additionalProperties": false,
      "properties": {
        "pathParams": { "$ref": "#/$defs/pathParams" },
        "query": { "$ref": "#/$defs/caseQuery" },
        "headers": { "$ref": "#/$defs/caseHeaders" },
        "body": { "description": "A JSON body; strings in it may hold placeholders." },
        "text": { "$ref": "#/$defs/template", "description": "A raw text body." },
        "schema": { "$ref": "#/$defs/jsonSchema", "description": "The schema of the request body; lint checks 'body' against it." }
      },
      "not": { "required": ["body", "text"] }
    },
    "status": {
      "description": "An exact code, a class such as '2XX', or a list of them.",
      "oneOf": [
        { "$ref": "#/$defs/statusAlternative" },
        { "type": "array", "minItems": 1, "uniqueItems": true, "items": { "$ref": "#/$defs/statusAlternative" } }
      ]
    },
    "statusAlternative": {
      "oneOf": [
        { "type": "integer", "minimum": 100, "maximum": 599 },
        { "type": "string", "pattern": "^[1-5]XX$" }
      ]
    },
    "headerMatcher": {
      "description": "An exact value, or exactly one of 'equals', 'pattern' (ECMA-262, unanchored unless it uses ^ or $) and 'present' (false: must be absent).",
      "oneOf": [
        { "$ref": "#/$defs/template" },
        {
          "type": "object",
          "additionalProperties": false,
          "minProperties": 1,
          "maxProperties": 1,
          "properties": {
            "equals": { "$ref": "#/$defs/template" },
            "pattern": { "type": "string" },
            "present": { "type": "boolean" }
          }
        }
      ]
    },
    "textMatcher": {
      "description": "The exact body, or exactly one of 'equals' and 'pattern'.",
      "oneOf": [
        { "type": "string" },
        {
          "type": "object",
          "additionalProperties": false,
          "minProperties": 1,
          "maxProperties": 1,
          "properties": { "equals": { "type": "string" }, "pattern": { "type": "string" } }
        }
      ]
    },
    "response": {
      "type": "object",
      "description": "What the response must look like. At most one of 'schema', 'text' and 'empty'; 'example' only with 'schema'.",
      "required": ["status"],
      "additionalProperties": false,
      "properties": {
        "status": { "$ref": "#/$defs/status" },
        "headers": {
          "type": "object",
          "propertyNames": { "$ref": "#/$defs/headerName" },
          "additionalProperties": { "$ref": "#/$defs/headerMatcher" }
        },
        "schema": { "$ref": "#/$defs/jsonSchema", "description": "The body must be JSON valid against this schema." },
        "example": { "description": "A body valid against 'schema'; fixtures use it." },
        "text": { "$ref": "#/$defs/textMatcher" },
        "empty": { "const": true, "description": "The body must be empty." }
      },
      "dependentRequired": { "example": ["schema"] },
      "not": {
        "anyOf": [
          { "required": ["schema", "text"] },
          { "required": ["schema", "empty"] },
          { "required": ["text", "empty"] }
        ]
      }
    },
    "setupStep": {
      "type": "object",
      "description": "A request run before the case's own; a step whose status does not match fails the case.",
      "required": ["name", "request"],
      "additionalProperties": false,
      "properties": {
        "name": { "$ref": "#/$defs/identifier" },
        "request": {
          "type": "object",
          "required": ["method", "path"],
          "additionalProperties": false,
          "properties": {
            "method": { "$ref": "#/$defs/method" },
            "path": { "$ref": "#/$defs/path" },
            "pathParams": { "$ref": "#/$defs/pathParams" },
            "query": { "$ref": "#/$defs/caseQuery" },
            "headers": { "$ref": "#/$defs/caseHeaders" },
            "body": { "description": "A JSON body." },
            "text": { "$ref": "#/$defs/template" }
          },
          "not": { "required": ["body", "text"] }
        },
        "status": { "$ref": "#/$defs/status", "description": "Expected status; default '2XX'." },
        "capture": {
          "type": "object",
          "description": "Variable name to a JSON Pointer into the step's JSON response body ('' is the whole body).",
          "propertyNames": { "$ref": "#/$defs/variableName" },
          "additionalProperties": { "type": "string", "pattern": "^(/.*)?$" }
        }
      }
    },
    "case": {
      "type": "object",
      "required": ["name", "response"],
      "additionalProperties": false,
      "properties": {
        "name": { "$ref": "#/$defs/identifier" },
        "summary": { "type": "string" },
        "description": { "type": "string" },
        "tags": { "$ref": "#/$defs/tags" },
        "setup": { "type": "array", "items": { "$ref": "#/$defs/setupStep" } },
        "request": { "$ref": "#/$defs/caseRequest" },
        "response": { "$ref": "#/$defs/response" }
      }
    }
  }
}
"""#
}
