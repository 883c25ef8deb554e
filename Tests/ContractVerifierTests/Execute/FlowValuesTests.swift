import ContractHTTP
import ContractModel
import Foundation
import TestSupport
import Testing

@testable import ContractVerifier

/// The flow drift harness: contracts written the way a careful user would, in the flow syntax
/// (captures from bodies, headers and parts of texts; `values`; header `differs` and patterns
/// with placeholders; links followed with `url`), against ``FlowDriftServer``, a small stateful
/// API told to drift one way at a time. A clean run passes; each drift fails exactly the cases
/// that state it, each with the rule (and place) expected, and a finding names both sides.
struct FlowValuesTests {
    static let create = #""setup": [ { "name": "create", "request": { "method": "POST", "path": "/items", "body": { "name": "desk" } }, "status": 201, "capture": { "itemId": "/id", "etag": { "header": "ETag" }, "createdAt": "/created_at", "updatedAt": "/updated_at", "version": "/version" } } ]"#
    static let change = #"{ "name": "change", "request": { "method": "PATCH", "path": "/items/{id}", "pathParams": { "id": "${capture:itemId}" }, "body": { "name": "desk-2" } } }"#
    static let remove = #""teardown": [ { "name": "remove", "request": { "method": "DELETE", "path": "/items/{id}", "pathParams": { "id": "${capture:itemId}" } } } ]"#

    static let contracts: [String: String] = [
        "items.json": """
            {
              "id": "items",
              "request": { "method": "GET", "path": "/items/{id}" },
              "cases": [
                { "name": "read-back",
                  "setup": [ { "name": "create", "request": { "method": "POST", "path": "/items", "body": { "name": "lamp-${unique:name}" } }, "status": 201,
                               "capture": { "itemId": "/id", "createdAt": "/created_at", "etag": { "header": "ETag" } } } ],
                  "request": { "pathParams": { "id": "${capture:itemId}" } },
                  "response": { "status": 200,
                                "headers": { "Content-Location": { "pattern": "^/items/${capture:itemId}$" } },
                                "values": { "/id": "${capture:itemId}", "/name": "lamp-${unique:name}", "/created_at": "${capture:createdAt}",
                                            "/tags": { "someElement": { "": "new" } }, "/deleted": { "present": false } } },
                  \(remove) },
                { "name": "update",
                  \(create.replacingOccurrences(of: " } } ]", with: " } }, \(change) ]")),
                  "request": { "pathParams": { "id": "${capture:itemId}" } },
                  "response": { "status": 200,
                                "headers": { "ETag": { "differs": "${capture:etag}" } },
                                "values": { "/name": "desk-2", "/color": "red", "/updated_at": { "after": "${capture:updatedAt}" }, "/version": { "after": "${capture:version}" } } },
                  \(remove) },
                { "name": "read-after-delete",
                  \(create.replacingOccurrences(of: " } } ]", with: #" } }, { "name": "delete", "request": { "method": "DELETE", "path": "/items/{id}", "pathParams": { "id": "${capture:itemId}" } }, "status": 204 } ]"#)),
                  "request": { "pathParams": { "id": "${capture:itemId}" } },
                  "response": { "status": 404 },
                  \(remove) },
                { "name": "conditional-read",
                  \(create),
                  "request": { "pathParams": { "id": "${capture:itemId}" }, "headers": { "If-None-Match": "${capture:etag}" } },
                  "response": { "status": 304, "empty": true },
                  \(remove) }
              ]
            }
            """,
        "items-patch.json": """
            {
              "id": "items-patch",
              "request": { "method": "PATCH", "path": "/items/{id}" },
              "cases": [
                { "name": "answers-update",
                  \(create),
                  "request": { "pathParams": { "id": "${capture:itemId}" }, "body": { "name": "desk-3" } },
                  "response": { "status": 200, "values": { "/id": "${capture:itemId}", "/name": "desk-3", "/created_at": "${capture:createdAt}" } },
                  \(remove) },
                { "name": "stale-if-match",
                  \(create.replacingOccurrences(of: " } } ]", with: " } }, \(change) ]")),
                  "request": { "pathParams": { "id": "${capture:itemId}" }, "headers": { "If-Match": "${capture:etag}" }, "body": { "name": "desk-4" } },
                  "response": { "status": 412 },
                  \(remove) }
              ]
            }
            """,
        "made.json": """
            {
              "id": "made",
              "request": { "method": "POST", "path": "/items" },
              "cases": [
                { "name": "created",
                  "request": { "body": { "name": "chair", "color": "blue" } },
                  "capture": { "madeId": { "header": "Location", "pattern": "/items/([0-9]+)$" }, "itemId": "/id" },
                  "response": { "status": 201, "values": { "/id": "${capture:madeId}", "/color": "blue" } },
                  \(remove) }
              ]
            }
            """,
        "list.json": """
            {
              "id": "list",
              "request": { "method": "GET", "path": "/items" },
              "cases": [
                { "name": "holds-new",
                  "setup": [ { "name": "create", "request": { "method": "POST", "path": "/items", "body": { "name": "shelf-${unique:name}" } }, "status": 201,
                               "capture": { "itemId": "/id" } } ],
                  "response": { "status": 200, "values": { "/items": { "someElement": { "/id": "${capture:itemId}", "/name": { "pattern": "^shelf-" } } } } },
                  \(remove) },
                { "name": "count-grows",
                  "setup": [ { "name": "count", "request": { "method": "GET", "path": "/items" }, "capture": { "total": "/total" } },
                             { "name": "create", "request": { "method": "POST", "path": "/items", "body": { "name": "stool" } }, "status": 201, "capture": { "itemId": "/id" } } ],
                  "response": { "status": 200, "values": { "/total": { "after": "${capture:total}" } } },
                  \(remove) },
                { "name": "shows-update",
                  \(create.replacingOccurrences(of: " } } ]", with: " } }, \(change) ]")),
                  "response": { "status": 200, "values": { "/items": { "someElement": { "/id": "${capture:itemId}", "/name": "desk-2" } } } },
                  \(remove) }
              ]
            }
            """,
        "letters.json": """
            {
              "id": "letters",
              "request": { "method": "GET", "path": "/letters" },
              "cases": [
                { "name": "second-page",
                  "setup": [ { "name": "first-page", "request": { "method": "GET", "path": "/letters", "query": { "limit": 2 } },
                               "capture": { "next": "/links/next", "firstLetter": "/items/0" } } ],
                  "request": { "url": "${capture:next}" },
                  "response": { "status": 200, "values": { "/items/0": { "differs": "${capture:firstLetter}" } } } },
                { "name": "last-page",
                  "setup": [ { "name": "second-page", "request": { "method": "GET", "path": "/letters", "query": { "cursor": 2, "limit": 2 } },
                               "capture": { "next": "/links/next" } } ],
                  "request": { "url": "${capture:next}" },
                  "response": { "status": 200, "values": { "/items": { "someElement": { "": "e" } }, "/links/next": { "present": false } } } },
                { "name": "next-by-link-header",
                  "setup": [ { "name": "first-page", "request": { "method": "GET", "path": "/letters", "query": { "limit": 2 } },
                               "capture": { "next": { "header": "Link", "pattern": "<([^>]*)>;\\\\s*rel=\\"next\\"" }, "firstLetter": "/items/0" } } ],
                  "request": { "url": "${capture:next}" },
                  "response": { "status": 200, "values": { "/items/0": { "differs": "${capture:firstLetter}" } } } }
              ]
            }
            """,
    ]

    typealias Drift = FlowDriftServer.Drift

    /// The cases each drift must fail, with the rule of each one's one finding and, for `values`,
    /// the pointer.
    static let expected: [Drift: [String: String]] = [
        .readReturnsAnotherID: ["items/read-back": "value.equals /id"],
        .nameNotStored: ["items/read-back": "value.equals /name"],
        .createdAtChangesOnRead: ["items/read-back": "value.equals /created_at"],
        .tagsEmpty: ["items/read-back": "value.someElement /tags"],
        .deletedFlagShown: ["items/read-back": "value.present /deleted"],
        .contentLocationWrong: ["items/read-back": "header.pattern"],
        // An ETag that never changes also lets a stale If-Match through.
        .etagNeverChanges: ["items/update": "header.differs", "items-patch/stale-if-match": "status"],
        .updateIgnored: ["items/update": "value.equals /name", "items-patch/answers-update": "value.equals /name", "list/shows-update": "value.someElement /items"],
        .updatedAtNotAdvanced: ["items/update": "value.after /updated_at"],
        .versionNotIncremented: ["items/update": "value.after /version"],
        .updateResetsUnsentField: ["items/update": "value.equals /color"],
        .createdAtChangesOnUpdate: ["items-patch/answers-update": "value.equals /created_at"],
        .updateAnswersOldState: ["items-patch/answers-update": "value.equals /name"],
        .idChangesOnUpdate: ["items-patch/answers-update": "value.equals /id"],
        .ifNoneMatchIgnored: ["items/conditional-read": "status"],
        .ifMatchIgnored: ["items-patch/stale-if-match": "status"],
        .locationNamesAnotherID: ["made/created": "value.equals /id"],
        .createIgnoresSentField: ["made/created": "value.equals /color"],
        .deleteKeepsItem: ["items/read-after-delete": "status"],
        // The newest item is missing from every list read right after a create.
        .listOmitsNewItem: ["list/holds-new": "value.someElement /items", "list/shows-update": "value.someElement /items"],
        .totalNotUpdated: ["list/count-grows": "value.after /total"],
        .listShowsOldName: ["list/shows-update": "value.someElement /items"],
        .nextLinkRepeatsFirstPage: ["letters/second-page": "value.differs /items/0"],
        .nextLinkToAnotherOrigin: ["letters/second-page": "url"],
        .lastPageHasNext: ["letters/last-page": "value.present /links/next"],
        .linkHeaderRepeatsFirstPage: ["letters/next-by-link-header": "value.differs /items/0"],
    ]

    static let caseNames = [
        "items-patch/answers-update", "items-patch/stale-if-match", "items/conditional-read", "items/read-after-delete", "items/read-back",
        "items/update", "letters/last-page", "letters/next-by-link-header", "letters/second-page", "list/count-grows", "list/holds-new",
        "list/shows-update", "made/created",
    ]

    func run(_ drift: Drift, concurrency: Int = 1) async throws -> (report: VerifyReport, server: LoopbackHTTPServer) {
        let store = FlowDriftServer(drift: drift)
        let server = try LoopbackHTTPServer(routeRequest: store.route)
        defer { server.stop() }
        var options = VerifyOptions(baseURL: server.baseURL)
        options.http.timeout = .seconds(600)
        // One at a time unless a test says: which case meets a drift that shows on the newest item
        // depends on the order.
        options.concurrency = concurrency
        return (try await Verifier.run(Fixtures.load(Self.contracts), options: options, reporters: []), server)
    }

    @Test func theHarnessInjectsAtLeastTwentyFiveKindsAndEachIsStated() {
        let kinds = Drift.allCases.filter { $0 != .none }
        #expect(kinds.count >= 25)
        #expect(Set(Self.expected.keys) == Set(kinds))
    }

    @Test func theContractsLoadClean() {
        #expect(Fixtures.load(Self.contracts).diagnostics.map(\.rendered) == [])
    }

    /// No false alarm, however many cases run at once: the run queue keeps a case that changes
    /// the items from running beside one that counts or lists them.
    @Test(arguments: [1, 4, 8, 8, 8])
    func aCleanServerPasses(concurrency: Int) async throws {
        let (report, _) = try await run(.none, concurrency: concurrency)
        #expect(report.results.map(\.name).sorted() == Self.caseNames)
        for result in report.results {
            #expect(result.outcome == .passed, "\(result.name): \(result.findings.map(\.message))")
            #expect(result.teardown.isEmpty, "\(result.name): \(result.teardown.map(\.message))")
        }
    }

    @Test(arguments: Drift.allCases.filter { $0 != .none })
    func eachDriftFailsTheCasesThatStateIt(_ drift: Drift) async throws {
        let (report, _) = try await run(drift)
        let failing = try #require(Self.expected[drift])
        #expect(report.results.map(\.name).sorted() == Self.caseNames)
        for result in report.results {
            if let expected = failing[result.name] {
                #expect(result.outcome == .failed, "\(drift): \(result.name) passed")
                let found = result.findings.map { [$0.rule ?? "-", $0.pointer].compactMap { $0 }.joined(separator: " ") }
                #expect(found == [expected], "\(drift): \(result.findings.map(\.message))")
            } else {
                #expect(result.outcome == .passed, "\(drift): \(result.name) failed: \(result.findings.map(\.message))")
            }
        }
    }

    @Test func aFindingNamesBothSides() async throws {
        let read = try #require(try await run(.readReturnsAnotherID).report.results.first { $0.name == "items/read-back" })
        let message = try #require(read.findings.first?.message)
        #expect(message.hasPrefix("expected /id to equal the captured 'itemId' ("))
        #expect(message.contains("), found 10"))
        let update = try #require(try await run(.etagNeverChanges).report.results.first { $0.name == "items/update" })
        #expect(update.findings.first?.message == #"expected header 'ETag' to differ from the captured 'etag' ("\"same\""), found the same, '"same"'"#)
        let page = try #require(try await run(.nextLinkRepeatsFirstPage).report.results.first { $0.name == "letters/second-page" })
        #expect(page.findings.first?.message == #"expected /items/0 to differ from the captured 'firstLetter' ("a"), found the same"#)
    }

    /// A link to another origin is never followed: nothing is sent there, the case fails naming
    /// the link and the server under test, and the request shown is the link.
    @Test func aLinkElsewhereIsNotFollowed() async throws {
        let (report, server) = try await run(.nextLinkToAnotherOrigin)
        let page = try #require(report.results.first { $0.name == "letters/second-page" })
        #expect(page.findings.first?.message == """
            the case's request cannot be sent: the link 'http://127.0.0.2:9/letters?cursor=2&limit=2' is not on the server under test \
            (\(server.baseURL)); a link is followed only on the base URL's scheme, host and port
            """)
        #expect(page.request.url == "http://127.0.0.2:9/letters?cursor=2&limit=2")
        #expect(page.attempts == 0)
        // The reproduction: the page that gave the link, then the link.
        #expect(page.chain.map(\.name) == ["first-page"])
        #expect(page.chain.first?.request.url == server.baseURL + "/letters?limit=2")
        #expect(server.requests.allSatisfy { $0.target.hasPrefix("/") })
    }

    /// The links followed: the body's absolute path, and the `Link` header's reference, relative
    /// to the request that gave it.
    @Test func linksAreFollowedWhereTheyPoint() async throws {
        let (report, server) = try await run(.none)
        let targets = server.requests.filter { $0.target.hasPrefix("/letters") }.map(\.target)
        #expect(targets.filter { $0 == "/letters?cursor=2&limit=2" }.count == 3, "\(targets)")
        #expect(targets.contains("/letters?cursor=4&limit=2"), "\(targets)")
        let last = try #require(report.results.first { $0.name == "letters/last-page" })
        #expect(last.request.url == server.baseURL + "/letters?cursor=4&limit=2")
    }
}
