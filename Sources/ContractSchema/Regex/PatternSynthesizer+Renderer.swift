extension PatternSynthesizer {
    /// Writes one candidate for a tree: which option each alternation takes comes from
    /// `decisions` (the first by default) and how often quantifiers repeat from `growth`.
    struct Renderer {
        enum Growth {
            /// Every quantifier repeats this many times more than its minimum, within its maximum.
            case uniform(Int)
            /// Quantifiers, first come first served, repeat while that adds no more than `need` in all.
            case fill(need: Int)
        }

        let growth: Growth
        let decisions: [Int: Int]
        let cycling: Bool
        let limit: Int
        /// Nodes visited before giving up: repeats of empty groups (`(?:)*`, `(\b)*`) add no length,
        /// so the length limit alone would not bound the work.
        let budget: Int
        private(set) var steps = 0
        private(set) var output: [UInt32] = []
        /// The alternations met, in order, with their option counts: where another path may differ.
        private(set) var encountered: [(id: Int, options: Int)] = []
        private var met = Set<Int>()
        private var counters: [Int: Int] = [:]
        private var need = 0

        init(growth: Growth, decisions: [Int: Int], cycling: Bool, limit: Int, budget: Int) {
            self.growth = growth
            self.decisions = decisions
            self.cycling = cycling
            self.limit = limit
            self.budget = budget
            if case .fill(let need) = growth { self.need = need }
        }

        /// False when the text would pass the limit, the budget is spent or a class admits nothing.
        mutating func render(_ node: Node) -> Bool {
            steps += 1
            guard steps <= budget else { return false }
            switch node {
            case .literal(let value):
                return append(value)
            case .set(let id, let members):
                guard !members.isEmpty else { return false }
                let count = counters[id, default: 0]
                counters[id] = count + 1
                return append(members[cycling ? count % members.count : 0])
            case .sequence(let nodes):
                for node in nodes { guard render(node) else { return false } }
                return true
            case .alternation(let id, let options):
                if met.insert(id).inserted { encountered.append((id, options.count)) }
                return render(options[min(decisions[id] ?? 0, options.count - 1)])
            case .repetition(let inner, let minimum, let maximum):
                for _ in 0..<minimum { guard render(inner) else { return false } }
                return repeatMore(inner, times: (maximum ?? .max) - minimum)
            case .assertion:
                return true
            }
        }

        private mutating func repeatMore(_ inner: Node, times available: Int) -> Bool {
            switch growth {
            case .uniform(let amount):
                for _ in 0..<min(available, amount) { guard render(inner) else { return false } }
                return true
            case .fill:
                var added = 0
                while need > 0, added < available {
                    let saved = (output.count, counters, need)
                    let fits = render(inner)
                    let length = output.count - saved.0
                    guard fits, length > 0, length <= saved.2 else {
                        output.removeSubrange(saved.0...)
                        (counters, need) = (saved.1, saved.2)
                        break
                    }
                    need = saved.2 - length
                    added += 1
                }
                return true
            }
        }

        private mutating func append(_ value: UInt32) -> Bool {
            guard output.count < limit else { return false }
            output.append(value)
            return true
        }
    }
}
