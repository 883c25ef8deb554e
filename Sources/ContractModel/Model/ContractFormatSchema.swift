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
      "description": "Text that may hold '${env:NAME}' (a secret from the environment, never printed), '${capture:NAME}' (a value captured by a setup step) and '${unique:NAME}' (12 letters and digits made fresh for each run of the case, the same for one name within it). '$${' is a literal '${'."
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
        "query": { "$ref": "#/$defs/query" },
        "schema": { "$ref": "#/$defs/jsonSchema", "description": "The schema of the body every request sends, whatever case runs; lint checks every case's 'body' against it (a case that expects a 4xx may break it on purpose)." },
        "contentType": { "type": "string", "pattern": "^[!#$%&'*+.^_`|~0-9A-Za-z-]+/[!#$%&'*+.^_`|~0-9A-Za-z-]+\\s*(;.*)?$", "description": "The media type of that body; application/json when 'schema' is given without it." },
        "parameters": {
          "type": "object",
          "description": "What the endpoint takes, whatever case runs: path, query and header parameters by name, each with its schema; lint checks every case's values against them (a case that expects a 4xx may break them on purpose).",
          "additionalProperties": false,
          "properties": {
            "path": { "type": "object", "additionalProperties": { "$ref": "#/$defs/parameter" } },
            "query": { "type": "object", "additionalProperties": { "$ref": "#/$defs/parameter" } },
            "header": { "type": "object", "propertyNames": { "pattern": "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$" }, "additionalProperties": { "$ref": "#/$defs/parameter" } }
          }
        }
      }
    },
    "parameter": {
      "type": "object",
      "description": "A parameter of the endpoint. Its value on the wire is text, read as the schema's type asks ('42' is the integer 42); an array is one value per repeat of a query parameter (style form, explode true), else items separated by ',' (form or simple), ' ' (spaceDelimited) or '|' (pipeDelimited).",
      "additionalProperties": false,
      "properties": {
        "required": { "type": "boolean", "description": "Every request sends it (a path parameter always does)." },
        "schema": { "$ref": "#/$defs/jsonSchema" },
        "style": { "enum": ["form", "simple", "spaceDelimited", "pipeDelimited"] },
        "explode": { "type": "boolean" },
        "description": { "type": "string" }
      }
    },
    "caseRequest": {
      "type": "object",
      "description": "The values this case sends; 'body' (JSON) and 'text' (raw) exclude each other, and so do 'url' and 'pathParams'.",
      "additionalProperties": false,
      "properties": {
        "pathParams": { "$ref": "#/$defs/pathParams" },
        "url": { "$ref": "#/$defs/followedURL" },
        "query": { "$ref": "#/$defs/caseQuery" },
        "headers": { "$ref": "#/$defs/caseHeaders" },
        "body": { "description": "A JSON body; strings in it may hold placeholders." },
        "text": { "$ref": "#/$defs/template", "description": "A raw text body." },
        "schema": { "$ref": "#/$defs/jsonSchema", "description": "The schema of the request body; lint checks 'body' against it." }
      },
      "allOf": [{ "not": { "required": ["body", "text"] } }, { "not": { "required": ["url", "pathParams"] } }]
    },
    "followedURL": {
      "type": "string",
      "pattern": "\\$\\{capture:",
      "description": "A link an earlier response gave, followed instead of the path (\"${capture:next}\"): an absolute URL on the base URL's scheme, host and port, an absolute path on that origin, or a reference relative to the request that gave it. A link elsewhere is not followed, and fails the case. The case's own 'query' is added to it."
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
      "description": "An exact value, or exactly one of 'equals', 'pattern' (ECMA-262, unanchored unless it uses ^ or $; placeholders stand for their values' text), 'present' (false: must be absent) and 'differs' (any other value), with 'repeats' beside it.",
      "oneOf": [
        { "$ref": "#/$defs/template" },
        {
          "type": "object",
          "additionalProperties": false,
          "properties": {
            "equals": { "$ref": "#/$defs/template" },
            "pattern": { "type": "string" },
            "present": { "type": "boolean" },
            "differs": { "$ref": "#/$defs/template" },
            "repeats": {
              "type": "boolean",
              "description": "true: the field may come several times (any value may match; never reported as repeated). false: exactly one field, even the same value twice fails."
            }
          },
          "oneOf": [{ "required": ["equals"] }, { "required": ["pattern"] }, { "required": ["present"] }, { "required": ["differs"] }],
          "if": { "required": ["present"], "properties": { "present": { "const": false } } },
          "then": { "not": { "required": ["repeats"] } }
        }
      ]
    },
    "orderBound": {
      "description": "An RFC 3339 date-time or a number, or a text with placeholders that stands for one when the case runs.",
      "anyOf": [
        { "type": "number" },
        { "type": "string", "format": "date-time" },
        { "type": "string", "pattern": "^-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?$" },
        { "type": "string", "pattern": "\\$\\{" }
      ]
    },
    "values": {
      "type": "object",
      "description": "JSON Pointers into the JSON body to what each value must be: a value (equal to it; a string that is one '${capture:NAME}' is the captured value) or one relation.",
      "propertyNames": { "pattern": "^(/([^~]|~[01])*)*$" },
      "additionalProperties": {
        "oneOf": [
          { "not": { "type": "object" } },
          {
            "type": "object",
            "additionalProperties": false,
            "properties": {
              "equals": { "description": "The same JSON value; strings may hold placeholders." },
              "differs": { "description": "Any other value." },
              "pattern": { "type": "string", "description": "ECMA-262; placeholders stand for their values' text, matched literally." },
              "after": { "$ref": "#/$defs/orderBound", "description": "Later (date-times, RFC 3339) or greater (numbers)." },
              "before": { "$ref": "#/$defs/orderBound", "description": "Earlier or smaller." },
              "someElement": { "$ref": "#/$defs/values", "minProperties": 1, "description": "Some element of the array meets all of these, their pointers read from the element." },
              "present": { "type": "boolean", "description": "true: the value is there; false: it is not." }
            },
            "minProperties": 1,
            "maxProperties": 1
          }
        ]
      }
    },
    "byteCount": { "type": "integer", "minimum": 0 },
    "sha256": {
      "type": "string",
      "pattern": "^[0-9A-Fa-f]{64}$",
      "description": "The SHA-256 of the body's bytes: 64 hexadecimal digits."
    },
    "lengthBounds": {
      "description": "'length' is exact; 'minLength' and 'maxLength' are bounds (inclusive), in bytes. Not 'length' with a bound.",
      "dependentSchemas": {
        "length": { "not": { "anyOf": [{ "required": ["minLength"] }, { "required": ["maxLength"] }] } }
      }
    },
    "textMatcher": {
      "description": "The exact body, or an object of conditions that must all hold (at least one).",
      "oneOf": [
        { "type": "string" },
        {
          "type": "object",
          "additionalProperties": false,
          "minProperties": 1,
          "$ref": "#/$defs/lengthBounds",
          "properties": {
            "equals": { "type": "string", "description": "The exact text; every other condition must hold for it." },
            "pattern": { "type": "string", "description": "ECMA-262, found anywhere in the text unless anchored with ^ or $." },
            "contains": {
              "type": "array",
              "minItems": 1,
              "uniqueItems": true,
              "items": { "type": "string", "minLength": 1 },
              "description": "Substrings the text must contain, each anywhere."
            },
            "length": { "$ref": "#/$defs/byteCount", "description": "The body's exact length in bytes." },
            "minLength": { "$ref": "#/$defs/byteCount", "description": "The body's least length in bytes." },
            "maxLength": { "$ref": "#/$defs/byteCount", "description": "The body's greatest length in bytes." },
            "sha256": { "$ref": "#/$defs/sha256" },
            "charset": {
              "description": "The charset the bytes must decode with (default utf-8); names ignore case.",
              "anyOf": [
                { "enum": ["utf-8", "us-ascii", "iso-8859-1"] },
                { "type": "string", "pattern": "^([Uu][Tt][Ff]-8|[Uu][Ss]-[Aa][Ss][Cc][Ii][Ii]|[Ii][Ss][Oo]-8859-1)$" }
              ]
            }
          }
        }
      ]
    },
    "binaryBody": {
      "type": "object",
      "description": "A body of bytes: at least one of a length or bounds, its SHA-256, the bytes themselves (base64).",
      "additionalProperties": false,
      "minProperties": 1,
      "$ref": "#/$defs/lengthBounds",
      "properties": {
        "length": { "$ref": "#/$defs/byteCount", "description": "The body's exact length in bytes." },
        "minLength": { "$ref": "#/$defs/byteCount", "description": "The body's least length in bytes." },
        "maxLength": { "$ref": "#/$defs/byteCount", "description": "The body's greatest length in bytes." },
        "sha256": { "$ref": "#/$defs/sha256" },
        "base64": {
          "type": "string",
          "pattern": "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$",
          "description": "The exact bytes, base64 (RFC 4648 section 4, padded, one line); fixtures serve them."
        }
      }
    },
    "response": {
      "type": "object",
      "description": "What the response must look like. At most one of 'schema', 'text', 'binary' and 'empty'; 'example' only with 'schema'.",
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
        "empty": { "const": true, "description": "The body must be empty." },
        "binary": { "$ref": "#/$defs/binaryBody" },
        "values": { "$ref": "#/$defs/values" }
      },
      "dependentRequired": { "example": ["schema"] },
      "not": {
        "anyOf": [
          { "required": ["schema", "text"] },
          { "required": ["schema", "empty"] },
          { "required": ["schema", "binary"] },
          { "required": ["text", "empty"] },
          { "required": ["text", "binary"] },
          { "required": ["empty", "binary"] },
          { "required": ["values", "text"] },
          { "required": ["values", "empty"] },
          { "required": ["values", "binary"] }
        ]
      }
    },
    "captures": {
      "type": "object",
      "propertyNames": { "$ref": "#/$defs/variableName" },
      "additionalProperties": {
        "oneOf": [
          { "$ref": "#/$defs/bodyPointer" },
          {
            "type": "object",
            "description": "Where the value is: the JSON body's value at a pointer, or a header's; with 'pattern', the text of its first group in the value's first match (the whole match without a group).",
            "additionalProperties": false,
            "properties": {
              "body": { "$ref": "#/$defs/bodyPointer" },
              "header": { "$ref": "#/$defs/headerName" },
              "pattern": { "type": "string", "format": "regex" }
            },
            "oneOf": [{ "required": ["body"] }, { "required": ["header"] }]
          }
        ]
      }
    },
    "bodyPointer": { "type": "string", "pattern": "^(/([^~]|~[01])*)*$", "description": "A JSON Pointer into the JSON response body ('' is the whole body)." },
    "setupStep": {
      "type": "object",
      "description": "A request run before the case's own (setup: a step whose status does not match fails the case) or after it (teardown).",
      "required": ["name", "request"],
      "additionalProperties": false,
      "properties": {
        "name": { "$ref": "#/$defs/identifier" },
        "request": {
          "type": "object",
          "required": ["method"],
          "additionalProperties": false,
          "properties": {
            "method": { "$ref": "#/$defs/method" },
            "path": { "$ref": "#/$defs/path" },
            "url": { "$ref": "#/$defs/followedURL" },
            "pathParams": { "$ref": "#/$defs/pathParams" },
            "query": { "$ref": "#/$defs/caseQuery" },
            "headers": { "$ref": "#/$defs/caseHeaders" },
            "body": { "description": "A JSON body." },
            "text": { "$ref": "#/$defs/template" }
          },
          "oneOf": [{ "required": ["path"] }, { "required": ["url"] }],
          "allOf": [{ "not": { "required": ["body", "text"] } }, { "not": { "required": ["url", "pathParams"] } }]
        },
        "status": { "$ref": "#/$defs/status", "description": "Expected status; default '2XX'." },
        "capture": { "$ref": "#/$defs/captures", "description": "Variable name to where the value is in the step's response: a JSON Pointer into its JSON body ('' is the whole body), or {body or header, pattern}." }
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
        "response": { "$ref": "#/$defs/response" },
        "capture": { "$ref": "#/$defs/captures", "description": "Variable name to where the value is in the case's own response (as a step's capture), for its teardown steps." },
        "teardown": {
          "type": "array",
          "description": "Requests run after the case's own whatever its outcome, in order; a step whose captures were never made is skipped; a failure is reported, not counted as drift. Default status: 2XX, 404 or 410.",
          "items": { "$ref": "#/$defs/setupStep" }
        }
      }
    }
  }
}
"""#
}
