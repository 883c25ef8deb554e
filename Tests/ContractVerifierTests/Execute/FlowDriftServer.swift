import Foundation
import TestSupport

@testable import ContractVerifier

/// A small stateful API for the flow drift harness (FlowValuesTests): items made, read, changed
/// and deleted, with ETags and conditional requests; a list with a count; and a fixed catalogue
/// of letters read page by page through `next` links. Told one drift, it shows it and nothing
/// else; every response it sends stays valid on its own, so only a flow can tell.
final class FlowDriftServer: Sendable {
    /// One way the server drifts from what it promised, or none.
    enum Drift: String, CaseIterable, Sendable {
        case none
        // A read of what was made.
        case readReturnsAnotherID, nameNotStored, createdAtChangesOnRead, tagsEmpty, deletedFlagShown, contentLocationWrong
        // An update.
        case etagNeverChanges, updateIgnored, updatedAtNotAdvanced, versionNotIncremented, updateResetsUnsentField
        case createdAtChangesOnUpdate, updateAnswersOldState, idChangesOnUpdate
        // Conditional requests.
        case ifNoneMatchIgnored, ifMatchIgnored
        // A create, and a delete.
        case locationNamesAnotherID, createIgnoresSentField, deleteKeepsItem
        // The list.
        case listOmitsNewItem, totalNotUpdated, listShowsOldName
        // Pages.
        case nextLinkRepeatsFirstPage, nextLinkToAnotherOrigin, lastPageHasNext, linkHeaderRepeatsFirstPage
    }

    struct Item: Sendable {
        var name: String
        var color: String
        var createdAt: String
        var updatedAt: String
        var version: Int
        /// The name the list shows (the one it was made with, where the list drifts).
        var listedName: String
    }

    static let letters = ["a", "b", "c", "d", "e"]

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
        return "2026-11-27T10:\(String(format: "%02d", second / 60 % 60)):\(String(format: "%02d", second % 60))Z"
    }

    /// - Parameter read: the answer to `GET /items/{id}`, where the read drifts show.
    func body(_ id: Int, _ item: Item, read: Bool = false) -> String {
        let shownID = read && drift == .readReturnsAnotherID ? id + 1000 : id
        let tags = drift == .tagsEmpty ? "[]" : #"["old", "new"]"#
        let deleted = drift == .deletedFlagShown ? #", "deleted": false"# : ""
        return #"{"id": \#(shownID), "name": "\#(item.name)", "color": "\#(item.color)", "created_at": "\#(item.createdAt)", "#
            + #""updated_at": "\#(item.updatedAt)", "version": \#(item.version), "tags": \#(tags)\#(deleted)}"#
    }

    func etag(_ item: Item) -> String {
        drift == .etagNeverChanges ? "\"same\"" : "\"\(item.version)-\(item.updatedAt)\""
    }

    func route(_ request: LoopbackHTTPServer.ReceivedRequest) -> LoopbackHTTPServer.Behavior {
        let (path, query) = Self.split(request.target)
        let parts = path.split(separator: "/").map(String.init)
        let sent = (try? JSONSerialization.jsonObject(with: Data(request.body))) as? [String: Any]
        switch (request.method, parts.first, parts.count) {
        case ("POST", "items", 1):
            return create(sent)
        case ("GET", "items", 1):
            return list()
        case ("GET", "items", 2):
            return read(Int(parts[1]), ifNoneMatch: request.header("If-None-Match"))
        case ("PATCH", "items", 2):
            return update(Int(parts[1]), sent, ifMatch: request.header("If-Match"))
        case ("DELETE", "items", 2):
            guard let id = Int(parts[1]) else { return .json(status: 404, "{}") }
            if drift != .deleteKeepsItem { items.withLock { _ = $0.removeValue(forKey: id) } }
            return .respond(status: 204, headers: [], body: [])
        case ("GET", "letters", 1):
            return page(cursor: Int(query["cursor"] ?? "0") ?? 0, limit: Int(query["limit"] ?? "2") ?? 2)
        default:
            return .json(status: 404, #"{"error": "no route"}"#)
        }
    }

    private func create(_ sent: [String: Any]?) -> LoopbackHTTPServer.Behavior {
        let time = now()
        let name = sent?["name"] as? String ?? ""
        let color = drift == .createIgnoresSentField ? "red" : sent?["color"] as? String ?? "red"
        let stored = drift == .nameNotStored ? name + " " : name
        let item = Item(name: stored, color: color, createdAt: time, updatedAt: time, version: 1, listedName: stored)
        let id = items.withLock { items in
            let id = (items.keys.max() ?? 0) + 1
            items[id] = item
            return id
        }
        let location = "/items/\(drift == .locationNamesAnotherID ? id + 1 : id)"
        return .respond(
            status: 201, headers: [("Location", location), ("ETag", etag(item)), ("Content-Type", "application/json")], body: Array(body(id, item).utf8))
    }

    private func list() -> LoopbackHTTPServer.Behavior {
        let (listed, total) = items.withLock { items in
            let newest = items.keys.max()
            return (items.sorted { $0.key < $1.key }.filter { drift != .listOmitsNewItem || $0.key != newest }, items.count)
        }
        let bodies = listed.map { id, item in
            var shown = item
            if drift == .listShowsOldName { shown.name = item.listedName }
            return body(id, shown)
        }
        return .json(status: 200, #"{"items": [\#(bodies.joined(separator: ", "))], "total": \#(drift == .totalNotUpdated ? 0 : total)}"#)
    }

    private func read(_ id: Int?, ifNoneMatch: String?) -> LoopbackHTTPServer.Behavior {
        guard let id, var item = items.withLock({ $0[id] }) else { return .json(status: 404, #"{"error": "no such item"}"#) }
        if drift == .createdAtChangesOnRead { item.createdAt = now() }
        if let ifNoneMatch, ifNoneMatch == etag(item), drift != .ifNoneMatchIgnored {
            return .respond(status: 304, headers: [("ETag", etag(item))], body: [])
        }
        let location = "/items/\(drift == .contentLocationWrong ? id + 7 : id)"
        return .respond(
            status: 200, headers: [("Content-Location", location), ("ETag", etag(item)), ("Content-Type", "application/json")],
            body: Array(body(id, item, read: true).utf8))
    }

    private func update(_ id: Int?, _ sent: [String: Any]?, ifMatch: String?) -> LoopbackHTTPServer.Behavior {
        guard let id else { return .json(status: 404, "{}") }
        let time = now()
        let outcome = items.withLock { items -> (before: Item, after: Item)?? in
            guard let before = items[id] else { return nil }
            if let ifMatch, ifMatch != etag(before), drift != .ifMatchIgnored { return .some(nil) }
            var item = before
            if drift != .updateIgnored, let name = sent?["name"] as? String { item.name = name }
            if drift == .updateResetsUnsentField { item.color = "none" }
            if drift != .updatedAtNotAdvanced { item.updatedAt = time }
            if drift == .createdAtChangesOnUpdate { item.createdAt = time }
            if drift != .versionNotIncremented { item.version += 1 }
            items[id] = item
            return (before, item)
        }
        guard let outcome else { return .json(status: 404, "{}") }
        guard let (before, after) = outcome else { return .json(status: 412, #"{"error": "the item changed since"}"#) }
        let shown = drift == .updateAnswersOldState ? before : after
        return .respond(
            status: 200, headers: [("ETag", etag(after)), ("Content-Type", "application/json")],
            body: Array(body(drift == .idChangesOnUpdate ? id + 500 : id, shown).utf8))
    }

    /// The letters from `cursor`, `limit` at a time, with a `next` link in the body (an absolute
    /// path) and in a `Link` header (relative to the request), except on the last page.
    private func page(cursor: Int, limit: Int) -> LoopbackHTTPServer.Behavior {
        let letters = Self.letters
        let start = min(max(0, cursor), letters.count)
        let shown = letters[start..<min(letters.count, start + max(1, limit))]
        var next = start + shown.count < letters.count ? start + shown.count : nil
        if drift == .lastPageHasNext, next == nil { next = letters.count }
        var bodyNext = next
        var headerNext = next
        if start == 0, drift == .nextLinkRepeatsFirstPage { bodyNext = 0 }
        if start == 0, drift == .linkHeaderRepeatsFirstPage { headerNext = 0 }
        let origin = start == 0 && drift == .nextLinkToAnotherOrigin ? "http://127.0.0.2:9" : ""
        let links = bodyNext.map { #"{"next": "\#(origin)/letters?cursor=\#($0)&limit=\#(limit)"}"# } ?? "{}"
        var headers = [("Content-Type", "application/json")]
        if let headerNext { headers.append(("Link", #"<?cursor=\#(headerNext)&limit=\#(limit)>; rel="next""#)) }
        let items = shown.map { "\"\($0)\"" }.joined(separator: ", ")
        return .respond(status: 200, headers: headers, body: Array(#"{"items": [\#(items)], "links": \#(links)}"#.utf8))
    }

    private static func split(_ target: String) -> (path: String, query: [String: String]) {
        guard let mark = target.firstIndex(of: "?") else { return (target, [:]) }
        var query: [String: String] = [:]
        for pair in target[target.index(after: mark)...].split(separator: "&") {
            let halves = pair.split(separator: "=", maxSplits: 1).map(String.init)
            if halves.count == 2 { query[halves[0]] = halves[1] }
        }
        return (String(target[..<mark]), query)
    }
}
