extension SchemaCompiler {
    /// Finds schemas that apply themselves to the same instance forever (A is `$ref` B, B is
    /// `allOf: [{$ref: A}]`): validation would never end, so they are compile problems. Recursion
    /// that moves into the instance (`properties`, `items`…) is fine and not reported.
    /// Only the nodes this compile created are walked: earlier ones were checked when they were
    /// made, and cannot lead back to new ones.
    func reportInPlaceCycles() {
        var state: [ObjectIdentifier: Bool] = [:]  // false: on the current path, true: done
        var reported: Set<ObjectIdentifier> = []
        let locations = Dictionary(created.map { (ObjectIdentifier($0.node), $0.location) }, uniquingKeysWith: { first, _ in first })

        func visit(_ node: SchemaNode) {
            let id = ObjectIdentifier(node)
            guard locations[id] != nil else { return }
            if let done = state[id] {
                if !done, reported.insert(id).inserted, let location = locations[id] {
                    report("this schema applies itself to the same value without end (a reference cycle)", at: location, kind: .referenceCycle)
                }
                return
            }
            state[id] = false
            for next in Self.inPlaceSubschemas(node) { visit(next) }
            state[id] = true
        }
        for (_, node) in created.sorted(by: { ($0.location.document, $0.location.pointer) < ($1.location.document, $1.location.pointer) }) {
            visit(node)
        }
    }

    static func inPlaceSubschemas(_ node: SchemaNode) -> [SchemaNode] {
        guard case .keywords(let keywords) = node.body else { return [] }
        return keywords.flatMap { keyword -> [SchemaNode] in
            switch keyword {
            case .ref(let target), .dynamicRef(let target, _), .not(let target): [target.object]
            case .allOf(let schemas), .anyOf(let schemas), .oneOf(let schemas): schemas.object.value.map(\.object)
            case .conditional(let condition, let then, let otherwise): [condition, then, otherwise].compactMap { $0?.object }
            case .dependentSchemas(let dependencies, _): dependencies.object.value.map(\.schema.object)
            default: []
            }
        }
    }
}

extension SchemaCompiler {
    /// Sets ``SchemaNode/referenceTarget`` on the nodes this compile created that are only a
    /// `$ref`. The walk is bounded, so even a cycle reported as a problem cannot hang it.
    func resolveReferenceChains() {
        for (_, node) in created {
            var target: SchemaNode? = nil
            var next = Self.onlyReference(node)
            var hops = 0
            while let current = next, hops < 64 {
                target = current
                next = Self.onlyReference(current)
                hops += 1
            }
            if next == nil, let target { node.referenceTarget = Borrowed(target) }
        }
    }

    /// The target of a schema whose only keyword is `$ref`.
    private static func onlyReference(_ node: SchemaNode) -> SchemaNode? {
        guard case .keywords(let keywords) = node.body, keywords.count == 1, case .ref(let target) = keywords[0] else { return nil }
        return target.object
    }
}
