import ContractHTTP
import ContractModel
import Foundation
import TestSupport
import Testing

@testable import ContractVerifier

/// Captures from response headers and from parts of texts, against a real server on loopback: the
/// id at the end of a create's `Location`, an `ETag`, the cursor inside a `next` link, each sent
/// on; and a capture that cannot be made fails its step, saying where it looked and what was there.
struct CaptureSourceTests {
    static let contracts: [String: String] = [
        "items.json": """
            {
              "id": "items",
              "request": { "method": "GET", "path": "/items/{id}" },
              "cases": [
                { "name": "by-location",
                  "setup": [ { "name": "make", "request": { "method": "POST", "path": "/items" }, "status": 201,
                               "capture": { "itemId": { "header": "location", "pattern": "/items/([0-9]+)$" }, "etag": { "header": "ETag" } } } ],
                  "request": { "pathParams": { "id": "${capture:itemId}" }, "headers": { "If-None-Match": "${capture:etag}" } },
                  "response": { "status": 304 } },
                { "name": "by-cursor",
                  "setup": [ { "name": "page", "request": { "method": "GET", "path": "/items" },
                               "capture": { "cursor": { "body": "/links/next", "pattern": "[?&]cursor=([^&]+)" } } } ],
                  "request": { "pathParams": { "id": "page-${capture:cursor}" } },
                  "response": { "status": 200 } },
                { "name": "whole-match",
                  "setup": [ { "name": "page", "request": { "method": "GET", "path": "/items" },
                               "capture": { "digits": { "body": "/links/next", "pattern": "[0-9]+" } } } ],
                  "request": { "pathParams": { "id": "${capture:digits}" } },
                  "response": { "status": 200 } },
                { "name": "no-match",
                  "setup": [ { "name": "make", "request": { "method": "POST", "path": "/items" }, "status": 201,
                               "capture": { "itemId": { "header": "Location", "pattern": "/things/([0-9]+)$" } } } ],
                  "request": { "pathParams": { "id": "${capture:itemId}" } },
                  "response": { "status": 200 } },
                { "name": "no-header",
                  "setup": [ { "name": "make", "request": { "method": "POST", "path": "/items" }, "status": 201,
                               "capture": { "version": { "header": "X-Version" } } } ],
                  "request": { "pathParams": { "id": "${capture:version}" } },
                  "response": { "status": 200 } },
                { "name": "not-text",
                  "setup": [ { "name": "page", "request": { "method": "GET", "path": "/items" },
                               "capture": { "count": { "body": "/count", "pattern": "[0-9]+" } } } ],
                  "request": { "pathParams": { "id": "${capture:count}" } },
                  "response": { "status": 200 } },
                { "name": "group-takes-no-part",
                  "setup": [ { "name": "page", "request": { "method": "GET", "path": "/items" },
                               "capture": { "cursor": { "body": "/links/next", "pattern": "limit=1|(cursor)" } } } ],
                  "request": { "pathParams": { "id": "${capture:cursor}" } },
                  "response": { "status": 200 } }
              ]
            }
            """
    ]

    /// `POST /items` answers 201 with `Location: /items/41` and an `ETag`; `GET /items/41` with
    /// that ETag in `If-None-Match` answers 304; `GET /items` answers a page whose `next` link
    /// holds a cursor, and `GET /items/page-<cursor>` 200 for that cursor only.
    static func route(_ method: String, _ target: String) -> LoopbackHTTPServer.Behavior {
        switch (method, target) {
        case ("POST", "/items"):
            return .respond(status: 201, headers: [("Location", "http://example.test/items/41"), ("ETag", "\"v7\""), ("Content-Type", "application/json")], body: Array("{}".utf8))
        case ("GET", "/items"):
            return .json(status: 200, #"{"count": 3, "links": {"next": "/items?limit=1&cursor=c0ffee42"}}"#)
        case ("GET", "/items/page-c0ffee42"), ("GET", "/items/1"):
            return .json(status: 200, "{}")
        case ("GET", "/items/41"):
            return .respond(status: 304, headers: [], body: [])
        default:
            return .json(status: 404, #"{"error": "no route"}"#)
        }
    }

    @Test func capturesTakeHeadersAndPartsOfTexts() async throws {
        let server = try LoopbackHTTPServer(route: Self.route)
        defer { server.stop() }
        var options = VerifyOptions(baseURL: server.baseURL)
        options.http.timeout = .seconds(600)
        let report = try await Verifier.run(Fixtures.load(Self.contracts), options: options, reporters: [])
        func result(_ name: String) throws -> CaseResult { try #require(report.results.first { $0.name == "items/\(name)" }) }

        // The id at the end of the Location, and the ETag as sent, whole.
        let byLocation = try result("by-location")
        #expect(byLocation.outcome == .passed, "\(byLocation.findings)")
        let conditional = try #require(server.requests.first { $0.target == "/items/41" })
        #expect(conditional.header("If-None-Match") == "\"v7\"")
        // The first group of the first match; the whole match for a pattern without a group.
        #expect(try result("by-cursor").outcome == .passed)
        #expect(try result("whole-match").outcome == .passed)

        let noMatch = try result("no-match")
        #expect(noMatch.outcome == .failed)
        #expect(noMatch.findings.map(\.rule) == ["setup.capture"])
        #expect(noMatch.findings.first?.message
            == "setup step 'make': cannot capture 'itemId' at header 'Location' (pattern '/things/([0-9]+)$'): the pattern does not match 'http://example.test/items/41'")
        #expect(try result("no-header").findings.first?.message == "setup step 'make': cannot capture 'version' at header 'X-Version': the response has no such header")
        #expect(try result("not-text").findings.first?.message
            == "setup step 'page': cannot capture 'count' at /count (pattern '[0-9]+'): a pattern picks a part of a text, found integer")
        #expect(try result("group-takes-no-part").findings.first?.message.contains("the pattern's first group takes no part in its match") == true)
    }
}
