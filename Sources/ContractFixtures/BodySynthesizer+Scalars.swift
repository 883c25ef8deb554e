import ContractJSON
import ContractSchema

extension BodySynthesizer {
    mutating func stringValue(_ facts: SchemaFacts) -> JSONValue? {
        if let pattern = facts.patterns.first {
            // A format's example that every pattern takes: the pattern's shortest example may be no
            // value of the format (Graph's durations: `^-?P([0-9]+D)?(T…)?$` is shortest as `P`).
            if let format = facts.format, let text = FormatExamples.example(format, random: &random),
                text.count >= facts.minLength, text.count <= (facts.maxLength ?? Int.max),
                facts.patterns.allSatisfy({ (try? ECMARegex($0))?.matches(text) == true })
            {
                return .string(text)
            }
            // Every pattern must match; the first one's example is checked against the others.
            guard let text = PatternSynthesizer.matchingExample(for: pattern, minLength: facts.minLength, maxLength: facts.maxLength),
                facts.patterns.dropFirst().allSatisfy({ (try? ECMARegex($0))?.matches(text) == true })
            else {
                fail("no string could be made that matches '\(pattern)'\(facts.patterns.count > 1 ? " and the other patterns" : "")")
                return nil
            }
            return .string(text)
        }
        if let format = facts.format, let text = FormatExamples.example(format, random: &random) {
            return .string(text)
        }
        let minimum = max(facts.minLength, facts.maxLength == 0 ? 0 : 1)
        let maximum = facts.maxLength ?? 40
        guard minimum <= maximum else {
            fail("the string must be at least \(minimum) and at most \(maximum) characters long")
            return nil
        }
        var text = FormatExamples.words[random.next(below: FormatExamples.words.count)]
        while text.count < minimum { text += " " + FormatExamples.words[random.next(below: FormatExamples.words.count)] }
        return .string(String(text.prefix(max(minimum, min(maximum, text.count)))))
    }

    mutating func numberValue(_ facts: SchemaFacts, integer: Bool) -> JSONValue? {
        let step = facts.multipleOf ?? (integer ? 1 : 0.5)
        var low = [facts.minimum, facts.exclusiveMinimum.map { $0 + step }].compactMap { $0 }.max() ?? 1
        let high = [facts.maximum, facts.exclusiveMaximum.map { $0 - step }].compactMap { $0 }.min() ?? max(low, 100)
        guard low <= high else {
            fail("no number lies between the bounds (\(low) to \(high))")
            return nil
        }
        low = max(low, min(high, 1))
        // A multiple of the step inside the bounds, a little above the minimum so it looks real.
        let steps = ((high - low) / step).rounded(.down)
        let chosen = (low / step).rounded(.up) * step + Double(random.next(below: Int(min(max(steps, 0), 10)) + 1)) * step
        let value = min(chosen, high)
        if integer { return .number(JSONNumber(Int(value.rounded()))) }
        // Through text, so 1.5 stays 1.5 and a step of 0.01 does not become 1.4999999.
        var decimals = 0
        while decimals < 8, (step * Double(pow10(decimals))).rounded() != step * Double(pow10(decimals)) { decimals += 1 }
        return JSONNumber(formatDecimal(value, decimals)).map(JSONValue.number)
    }

    private func formatDecimal(_ value: Double, _ decimals: Int) -> String {
        guard decimals > 0 else { return String(Int(value.rounded())) }
        let scale = pow10(decimals)
        let scaled = Int((value * Double(scale)).rounded())
        let whole = scaled / scale
        let fraction = String(abs(scaled % scale))
        return "\(whole).\(String(repeating: "0", count: decimals - fraction.count))\(fraction)"
    }

    private func pow10(_ exponent: Int) -> Int { (0..<exponent).reduce(1) { value, _ in value * 10 } }
}
