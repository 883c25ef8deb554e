import ContractHTTP
import ContractModel
import Foundation
import TestSupport
import Testing

@testable import ContractVerifier

/// Responses held to what a flow captured and sent (`values`, header `differs` and patterns with
/// placeholders), against a small stateful server on loopback that can be told to drift one way
/// at a time: a clean run passes, and each drift fails exactly the case that states it, naming
/// both sides.
struct FlowValuesTests {
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
                                            "/tags": { "someElement": { "": "new" } }, "/deleted": { "present": false } } } },
                { "name": "update",
                  "setup": [ { "name": "create", "request": { "method": "POST", "path": "/items", "body": { "name": "desk" } }, "status": 201,
                               "capture": { "itemId": "/id", "updatedAt": "/updated_at", "etag": { "header": "ETag" }, "version": "/version" } },
                             { "name": "change", "request": { "method": "PATCH", "path": "/items/{id}", "pathParams": { "id": "${capture:itemId}" }, "body": { "name": "desk-2" } } } ],
                  "request": { "pathParams": { "id": "${capture:itemId}" } },
                  "response": { "status": 200,
                                "headers": { "ETag": { "differs": "${capture:etag}" } },
                                "values": { "/name": "desk-2", "/updated_at": { "after": "${capture:updatedAt}" }, "/version": { "after": "${capture:version}" } } } }
              ]
            }
            """,
        "made.json": """
            {
              "id": "made",
              "request": { "method": "POST", "path": "/items", "body": { "name": "chair" } },
              "cases": [
                { "name": "created",
                  "capture": { "madeId": { "header": "Location", "pattern": "/items/([0-9]+)$" } },
                  "response": { "status": 201, "values": { "/id": "${capture:madeId}" } } }
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
                  "response": { "status": 200, "values": { "/items": { "someElement": { "/id": "${capture:itemId}", "/name": { "pattern": "^shelf-" } } } } } }
              ]
            }
            """,
    ]

    /// One way the server drifts from what it promised, or none.
    enum Drift: String, CaseIterable, Sendable {
        case none
        case readReturnsAnotherID, nameNotStored, createdAtChangesOnRead, tagsEmpty, deletedFlagShown, contentLocationWrong
        case etagNeverChanges, updateIgnored, updatedAtNotAdvanced, versionNotIncremented
        case locationNamesAnotherID
        case listOmitsNewItem
    }

    /// Items by id, with the drift it was told to show.
    final class Store: Sendable {
        struct Item: Sendable {
            var name: String
            var createdAt: String
            var updatedAt: String
            var version: Int
        }

        let drift: Drift
        let items = Locked([Int: Item]())
        let clock = Locked(0)

        init(drift: Drift) {
            self.drift = drift
        }

        /// A later time at every write.
        func now() -> String {
            let second = clock.withLock { tick in
                tick += 1
                return tick
            }
            return "2026-11-27T10:00:\(String(format: "%02d", second % 60))Z"
        }

        /// - Parameter read: the answer to `GET /items/{id}`, where the read drifts show.
        func body(_ id: Int, _ item: Item, read: Bool = false) -> String {
            let shownID = read && drift == .readReturnsAnotherID ? id + 1000 : id
            let tags = drift == .tagsEmpty ? "[]" : #"["old", "new"]"#
            let deleted = drift == .deletedFlagShown ? #", "deleted": false"# : ""
            return #"{"id": \#(shownID), "name": "\#(item.name)", "created_at": "\#(item.createdAt)", "updated_at": "\#(item.updatedAt)", "version": \#(item.version), "tags": \#(tags)\#(deleted)}"#
        }

        func etag(_ item: Item) -> String {
            drift == .etagNeverChanges ? "\"same\"" : "\"\(item.version)-\(item.updatedAt)\""
        }

        func route(_ method: String, _ target: String, _ requestBody: [UInt8]) -> LoopbackHTTPServer.Behavior {
            let parts = target.split(separator: "/").map(String.init)
            let sent = (try? JSONSerialization.jsonObject(with: Data(requestBody))) as? [String: Any]
            switch (method, parts.count) {
            case ("POST", 1):
                let time = now()
                let name = sent?["name"] as? String ?? ""
                let item = Item(name: drift == .nameNotStored ? name + " " : name, createdAt: time, updatedAt: time, version: 1)
                let id = items.withLock { items in
                    let id = (items.keys.max() ?? 0) + 1
                    items[id] = item
                    return id
                }
                let location = "/items/\(drift == .locationNamesAnotherID ? id + 1 : id)"
                return .respond(status: 201, headers: [("Location", location), ("ETag", etag(item)), ("Content-Type", "application/json")], body: Array(body(id, item).utf8))
            case ("GET", 1):
                let listed = items.withLock { items in items.sorted { $0.key < $1.key }.filter { drift != .listOmitsNewItem || $0.key != items.keys.max() } }
                let bodies = listed.map { body($0.key, $0.value) }.joined(separator: ", ")
                return .json(status: 200, #"{"items": [\#(bodies)]}"#)
            case ("GET", 2):
                guard let id = Int(parts[1]), var item = items.withLock({ $0[id] }) else { return .json(status: 404, "{}") }
                if drift == .createdAtChangesOnRead { item.createdAt = now() }
                let location = "/items/\(drift == .contentLocationWrong ? id + 7 : id)"
                return .respond(status: 200, headers: [("Content-Location", location), ("ETag", etag(item)), ("Content-Type", "application/json")], body: Array(body(id, item, read: true).utf8))
            case ("PATCH", 2):
                guard let id = Int(parts[1]) else { return .json(status: 404, "{}") }
                let time = now()
                let item = items.withLock { items -> Item? in
                    guard var item = items[id] else { return nil }
                    if drift != .updateIgnored, let name = sent?["name"] as? String { item.name = name }
                    if drift != .updatedAtNotAdvanced { item.updatedAt = time }
                    if drift != .versionNotIncremented { item.version += 1 }
                    items[id] = item
                    return item
                }
                guard let item else { return .json(status: 404, "{}") }
                return .respond(status: 200, headers: [("ETag", etag(item)), ("Content-Type", "application/json")], body: Array(body(id, item).utf8))
            default:
                return .json(status: 404, #"{"error": "no route"}"#)
            }
        }
    }

    /// Which case each drift must fail, and the rule of its one finding.
    static let expected: [Drift: (String, String)] = [
        .readReturnsAnotherID: ("items/read-back", "value.equals"),
        .nameNotStored: ("items/read-back", "value.equals"),
        .createdAtChangesOnRead: ("items/read-back", "value.equals"),
        .tagsEmpty: ("items/read-back", "value.someElement"),
        .deletedFlagShown: ("items/read-back", "value.present"),
        .contentLocationWrong: ("items/read-back", "header.pattern"),
        .etagNeverChanges: ("items/update", "header.differs"),
        .updateIgnored: ("items/update", "value.equals"),
        .updatedAtNotAdvanced: ("items/update", "value.after"),
        .versionNotIncremented: ("items/update", "value.after"),
        .locationNamesAnotherID: ("made/created", "value.equals"),
        .listOmitsNewItem: ("list/holds-new", "value.someElement"),
    ]

    func run(_ drift: Drift) async throws -> VerifyReport {
        let store = Store(drift: drift)
        let server = try LoopbackHTTPServer(routeWithBody: store.route)
        defer { server.stop() }
        var options = VerifyOptions(baseURL: server.baseURL)
        options.http.timeout = .seconds(600)
        // One at a time: the list case reads what the others made.
        options.concurrency = 1
        return try await Verifier.run(Fixtures.load(Self.contracts), options: options, reporters: [])
    }

    @Test func aCleanServerPasses() async throws {
        let report = try await run(.none)
        #expect(report.results.map(\.name).sorted() == ["items/read-back", "items/update", "list/holds-new", "made/created"])
        for result in report.results {
            #expect(result.outcome == .passed, "\(result.name): \(result.findings.map(\.message))")
        }
    }

    @Test(arguments: Drift.allCases.filter { $0 != .none })
    func eachDriftFailsTheCaseThatStatesIt(_ drift: Drift) async throws {
        let report = try await run(drift)
        let (failing, rule) = try #require(Self.expected[drift])
        #expect(report.results.count == 4)
        for result in report.results {
            if result.name == failing {
                #expect(result.outcome == .failed, "\(drift): \(failing) passed")
                #expect(result.findings.map(\.rule) == [rule], "\(drift): \(result.findings.map(\.message))")
            } else {
                #expect(result.outcome == .passed, "\(drift): \(result.name) failed: \(result.findings.map(\.message))")
            }
        }
    }

    @Test func aFindingNamesBothSides() async throws {
        let report = try await run(.readReturnsAnotherID)
        let read = try #require(report.results.first { $0.name == "items/read-back" })
        let message = try #require(read.findings.first?.message)
        #expect(message.hasPrefix("expected /id to equal the captured 'itemId' ("))
        #expect(message.contains("), found 10"))
        let update = try #require(try await run(.etagNeverChanges).results.first { $0.name == "items/update" })
        #expect(update.findings.first?.message == #"expected header 'ETag' to differ from the captured 'etag' ("\"same\""), found the same, '"same"'"#)
    }
}
