import Testing
import TestSupport

@testable import ContractRequests

/// The segment tree finds exactly the routes a comparison with every template finds, in the
/// table's order: checked against that comparison on templates and paths drawn from a small
/// alphabet, where literals and placeholders collide often.
struct SegmentTreeTests {
    /// Every template compared segment by segment, then the most specific first: at the first
    /// segment where two differ, a literal before a placeholder; one template's routes in order.
    static func everyTemplate(_ templates: [[String]], _ path: [String]) -> [Int] {
        let matching = templates.indices.filter { index in
            let template = templates[index]
            return template.count == path.count && zip(template, path).allSatisfy { SegmentTree.isPlaceholder($0) || $0 == $1 }
        }
        func moreSpecific(_ a: Int, _ b: Int) -> Bool {
            for (x, y) in zip(templates[a], templates[b]) where SegmentTree.isPlaceholder(x) != SegmentTree.isPlaceholder(y) {
                return !SegmentTree.isPlaceholder(x)
            }
            return a < b
        }
        return matching.sorted(by: moreSpecific)
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

    @Test func aLiteralSegmentWinsOverAPlaceholder() {
        let routes = [
            Route(contract: "items.get", caseName: "found", method: "GET", pathTemplate: "/items/{id}", query: [], status: 200, describedQuery: []),
            Route(contract: "items.new", caseName: "form", method: "GET", pathTemplate: "/items/new", query: [], status: 200, describedQuery: []),
        ]
        let table = RouteTable(routes)
        #expect(table.match(method: "GET", path: "/items/new", query: [], shownURL: "/items/new") == .route(1), "the concrete path, as OpenAPI matches it")
        #expect(table.match(method: "get", path: "/items//7/", query: [], shownURL: "/items/7") == .route(0), "empty segments and the method's case aside")
        guard case .none(let message, let nearest, _) = table.match(method: "POST", path: "/items/7", query: [], shownURL: "/items/7") else {
            Issue.record("POST has no route")
            return
        }
        #expect(nearest == 0 && message.contains("the method is POST"), "\(message)")
    }
}
