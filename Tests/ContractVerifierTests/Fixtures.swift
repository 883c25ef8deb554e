import ContractModel

/// Contract trees in memory for the verifier's tests.
enum Fixtures {
    static func load(_ files: [String: String]) -> ContractSet {
        let sources = files.keys.sorted().map { SourceFile(path: "c/" + $0, relativePath: $0, bytes: Array(files[$0, default: ""].utf8)) }
        return ContractLoader.load(files: sources, directory: "c")
    }

    static let product = """
        {
          "type": "object",
          "required": ["id", "name", "price"],
          "properties": {
            "id": { "type": "integer" },
            "name": { "type": "string" },
            "price": { "type": "number", "minimum": 0 },
            "createdAt": { "type": "string", "format": "date-time" }
          },
          "additionalProperties": false
        }
        """

    static let getProduct = """
        {
          "id": "products.get",
          "tags": ["products"],
          "request": {
            "method": "GET", "path": "/api/products/{id}",
            "headers": { "Accept": "application/json", "Authorization": "Bearer ${env:TOKEN}" },
            "query": { "include": "vendor" }
          },
          "cases": [
            {
              "name": "found",
              "request": { "pathParams": { "id": "a/b c" } },
              "response": {
                "status": 200,
                "headers": { "Content-Type": { "pattern": "^application/json" }, "X-Token": "${env:TOKEN}" },
                "schema": { "$ref": "schemas/product.json" }
              }
            },
            {
              "name": "anonymous",
              "tags": ["auth"],
              "request": { "pathParams": { "id": 1 }, "headers": { "Authorization": null }, "query": { "include": null } },
              "response": { "status": "4XX" }
            }
          ]
        }
        """

    static let createProduct = """
        {
          "id": "products.create",
          "request": { "method": "POST", "path": "/api/products" },
          "cases": [
            {
              "name": "copy",
              "setup": [
                {
                  "name": "first",
                  "request": { "method": "POST", "path": "/api/products", "body": { "name": "A", "price": 1 } },
                  "status": 201,
                  "capture": { "sourceId": "/id", "sourceName": "/name" }
                }
              ],
              "request": { "body": { "copyOf": "${capture:sourceId}", "name": "copy of ${capture:sourceName}", "token": "${env:TOKEN}" } },
              "response": { "status": 201, "empty": true }
            }
          ]
        }
        """

    static var tree: ContractSet {
        load(["schemas/product.json": product, "get.json": getProduct, "create.json": createProduct])
    }
}
