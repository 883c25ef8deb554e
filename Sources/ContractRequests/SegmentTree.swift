/// Path templates as a tree of segments: a literal segment is a child by its text, a segment
/// that is a placeholder (`{id}`, whole) a child that takes any text. A path's routes are found
/// by walking its segments, so routing costs the path's length (and the placeholders it could
/// fill), not the number of routes.
struct SegmentTree: Sendable {
    private struct Node: Sendable {
        var literals: [String: Int] = [:]
        var placeholder: Int?
        /// The routes whose template ends here.
        var ends: [Int] = []
    }

    private var nodes = [Node()]

    init(_ templates: [[String]]) {
        for (route, segments) in templates.enumerated() {
            var node = 0
            for segment in segments {
                if Self.isPlaceholder(segment) {
                    if let next = nodes[node].placeholder {
                        node = next
                    } else {
                        nodes.append(Node())
                        nodes[node].placeholder = nodes.count - 1
                        node = nodes.count - 1
                    }
                } else if let next = nodes[node].literals[segment] {
                    node = next
                } else {
                    nodes.append(Node())
                    nodes[node].literals[segment] = nodes.count - 1
                    node = nodes.count - 1
                }
            }
            nodes[node].ends.append(route)
        }
    }

    /// A segment a value fills: one that opens and closes with a brace, as routing has always read it.
    static func isPlaceholder(_ segment: String) -> Bool {
        segment.hasPrefix("{") && segment.hasSuffix("}")
    }

    /// The routes whose template `segments` fills, the most specific template first: where two
    /// templates part, the one with a literal segment there comes before the one with a
    /// placeholder (`/items/latest` before `/items/{id}`, as OpenAPI matches concrete paths
    /// first); the routes of one template keep the order they were given in.
    func routes(matching segments: [String]) -> [Int] {
        var found: [Int] = []
        var pending: [(node: Int, depth: Int)] = [(0, 0)]
        while let (node, depth) = pending.popLast() {
            guard depth < segments.count else {
                found += nodes[node].ends
                continue
            }
            // Last in, first out: the literal branch is walked before the placeholder's.
            if let next = nodes[node].placeholder { pending.append((next, depth + 1)) }
            if let next = nodes[node].literals[segments[depth]] { pending.append((next, depth + 1)) }
        }
        return found
    }
}
