extension PatternSynthesizer {
    /// Tries candidates in order of preference until one passes; every attempt counts against caps.
    struct Search {
        let tree: Node
        let regex: ECMARegex
        let minLength: Int
        let maxLength: Int?
        /// Characters no candidate may hold; nil for none.
        let excluding: (@Sendable (Unicode.Scalar) -> Bool)?
        private let limit: Int
        /// Above this, a candidate is valid but longer than it need be: kept for last.
        private let comfortableLength: Int
        private var renders = 0
        private var checks = 0
        private var work = 0
        private var seen = Set<[UInt32]>()
        private var short: [[UInt32]] = []
        private var long: [[UInt32]] = []

        private static let maximumRenders = 600
        private static let maximumChecks = 300
        /// Nodes rendered over the whole search, so nested quantifiers cannot make it slow.
        private static let maximumWork = 2_000_000
        /// Decision sets tried per plan (which alternative each alternation takes).
        private static let pathsPerPlan = 16

        init(tree: Node, regex: ECMARegex, minLength: Int, maxLength: Int?, excluding: (@Sendable (Unicode.Scalar) -> Bool)? = nil) {
            self.tree = tree
            self.regex = regex
            self.minLength = minLength
            self.maxLength = maxLength
            self.excluding = excluding
            limit = min(maxLength ?? .max, max(100_000, minLength))
            comfortableLength = min(maxLength ?? .max, max(2 * minLength, minLength + 32))
        }

        private var exhausted: Bool {
            renders >= Self.maximumRenders || checks >= Self.maximumChecks || work >= Self.maximumWork
        }

        mutating func run() -> String? {
            // Growth doubles so that long minimums are reached in few steps; 16 even for short
            // ones, as lookaheads such as `(?=.*\d)` may need a longer cycle through a class.
            var growths = [0, 1, 2, 4, 8, 16]
            while let last = growths.last, last <= minLength, last < limit { growths.append(last * 2) }
            // Cycling through a class's characters reads better ("abc"); the same one repeated
            // ("aaa") is the fallback for patterns that want repeats.
            for cycling in [true, false] {
                for growth in growths {
                    guard let outcome = attempt(.uniform(growth), cycling: cycling) else { continue }
                    if case .found(let text) = outcome { return text }
                    break  // everything rendered was past the limit; more growth cannot help
                }
                if minLength > 0, case .found(let text)? = attempt(.fill(target: minLength), cycling: cycling) { return text }
                if let text = padded() { return text }
                for candidate in long { if let text = check(candidate) { return text } }
                long.removeAll()
                if exhausted { return nil }
            }
            return nil
        }

        enum Plan {
            case uniform(Int)
            /// Grow the first quantifiers until the text reaches `target`, for exact lengths.
            case fill(target: Int)
        }

        enum Outcome {
            case found(String)
            /// Every rendering exceeded the length limit.
            case tooLong
        }

        /// Renders the plan with the first option of every alternation, then others breadth-first.
        private mutating func attempt(_ plan: Plan, cycling: Bool) -> Outcome? {
            var queue: [[Int: Int]] = [[:]]
            var queued: Set<[Int: Int]> = [[:]]
            var index = 0
            var allTooLong = true
            while index < queue.count, index < Self.pathsPerPlan, !exhausted {
                let decisions = queue[index]
                index += 1
                var growth = Renderer.Growth.uniform(0)
                switch plan {
                case .uniform(let amount): growth = .uniform(amount)
                case .fill(let target):
                    var shortest = makeRenderer(.uniform(0), decisions, cycling)
                    let rendered = shortest.render(tree)
                    work += shortest.steps
                    guard rendered, shortest.output.count < target else {
                        enqueueAlternatives(of: shortest, after: decisions, into: &queue, queued: &queued)
                        continue
                    }
                    growth = .fill(need: target - shortest.output.count)
                }
                var renderer = makeRenderer(growth, decisions, cycling)
                let rendered = renderer.render(tree)
                work += renderer.steps
                enqueueAlternatives(of: renderer, after: decisions, into: &queue, queued: &queued)
                guard rendered else { continue }
                allTooLong = false
                if let text = consider(renderer.output) { return .found(text) }
            }
            return allTooLong ? .tooLong : nil
        }

        private mutating func makeRenderer(_ growth: Renderer.Growth, _ decisions: [Int: Int], _ cycling: Bool) -> Renderer {
            renders += 1
            return Renderer(growth: growth, decisions: decisions, cycling: cycling, limit: limit, budget: max(0, Self.maximumWork - work))
        }

        /// The decision sets that differ from `decisions` by one more step in one alternation met.
        private func enqueueAlternatives(
            of renderer: Renderer, after decisions: [Int: Int], into queue: inout [[Int: Int]], queued: inout Set<[Int: Int]>
        ) {
            for (id, options) in renderer.encountered where queue.count < 256 {
                let current = decisions[id] ?? 0
                guard current + 1 < options else { continue }
                var next = decisions
                next[id] = current + 1
                if queued.insert(next).inserted { queue.append(next) }
            }
        }

        private mutating func consider(_ candidate: [UInt32]) -> String? {
            guard seen.insert(candidate).inserted else { return nil }
            if candidate.count < minLength {
                if short.count < 8 { short.append(candidate) }
                return nil
            }
            if candidate.count > comfortableLength {
                if long.count < 8 && candidate.count <= maxLength ?? .max { long.append(candidate) }
                return nil
            }
            return check(candidate)
        }

        /// Too short but not anchored where the padding goes: JSON Schema's `pattern` searches, so
        /// text after (or before) the match still matches.
        private mutating func padded() -> String? {
            for candidate in short {
                let missing = minLength - candidate.count
                for filler: UInt32 in [120, 32] {  // "x", then a space for patterns ending in `\b`
                    let padding = [UInt32](repeating: filler, count: missing)
                    if let text = check(candidate + padding) ?? check(padding + candidate) { return text }
                }
            }
            short.removeAll()
            return nil
        }

        private mutating func check(_ candidate: [UInt32]) -> String? {
            guard checks < Self.maximumChecks, candidate.count >= minLength, candidate.count <= maxLength ?? .max,
                let text = PatternSynthesizer.string(candidate)
            else { return nil }
            if let excluding, text.unicodeScalars.contains(where: excluding) { return nil }
            checks += 1
            let steps = 20_000 + 20 * candidate.count
            return regex.matches(text, stepLimit: steps) == .matched ? text : nil
        }
    }
}
