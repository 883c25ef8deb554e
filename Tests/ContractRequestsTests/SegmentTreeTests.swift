import Testing
import TestSupport

@testable import ContractRequests

/// The segment tree finds exactly the routes a comparison with every template finds, in the
/// table's order: checked against that comparison on templates and paths drawn from a small
/// alphabet, where literals and placeholders collide often.
struct SegmentTreeTests {
    /// What routing did before the tree: every template, segment by segment.
    static func everyTemplate(_ templates: [[String]], _ path: [String]) -> [Int] {
        templates.indices.filter { index in
            let template = templates[index]
            return template.count == path.count && zip(template, path).allSatisfy { SegmentTree.isPlaceholder($0) || $0 == $1 }
        }
    }

    @Test func itFindsWhatComparingEveryTemplateFinds() {
        var generator = SplitMix(seed: 2026)
        let parts = ["a", "b", "{id}", "{x}.json", "c"]
        let texts = ["a", "b", "c", "7", "x.json", "{id}"]
        for _ in 0..<200 {
            let templates = (0..<Int.random(in: 1...40, using: &generator)).map { _ in
                (0..<Int.random(in: 0...4, using: &generator)).map { _ in parts.randomElement(using: &generator) ?? "a" }
            }
            let tree = SegmentTree(templates)
            for _ in 0..<50 {
                let path = (0..<Int.random(in: 0...4, using: &generator)).map { _ in texts.randomElement(using: &generator) ?? "a" }
                #expect(tree.routes(matching: path) == Self.everyTemplate(templates, path), "\(templates) \(path)")
            }
        }
    }

    @Test func aLiteralAndAPlaceholderBothTakeAPathInTheTablesOrder() {
        let routes = [
            Route(contract: "items.get", caseName: "found", method: "GET", pathTemplate: "/items/{id}", query: [], status: 200, describedQuery: []),
            Route(contract: "items.new", caseName: "form", method: "GET", pathTemplate: "/items/new", query: [], status: 200, describedQuery: []),
        ]
        let table = RouteTable(routes)
        #expect(table.match(method: "GET", path: "/items/new", query: [], shownURL: "/items/new") == .route(0), "the first route, as before the tree")
        #expect(table.match(method: "get", path: "/items//7/", query: [], shownURL: "/items/7") == .route(0), "empty segments and the method's case aside")
        guard case .none(let message, let nearest) = table.match(method: "POST", path: "/items/7", query: [], shownURL: "/items/7") else {
            Issue.record("POST has no route")
            return
        }
        #expect(nearest == 0 && message.contains("the method is POST"), "\(message)")
    }
}
