/// A string that a simple regular expression matches, for `pattern` in schemas and header
/// expectations: literals, `^` and `$`, escapes (`\d`, `\w`, `\.`), character classes, groups with
/// alternatives, and the quantifiers `?`, `*`, `+`, `{n}`, `{n,m}`. Takes the shortest choice
/// everywhere; the caller checks the result with the real regex engine and gives up if it fails.
public enum PatternSynthesizer {
    /// The shortest string the pattern's simple form describes, not yet checked against it.
    public static func example(for pattern: String) -> String? {
        var parser = Parser(scalars: Array(pattern.unicodeScalars))
        guard let text = parser.alternatives(), parser.position == parser.scalars.count else { return nil }
        return text
    }

    /// A string that `pattern` matches as ECMA-262 has it (checked), or nil when the pattern is
    /// beyond the simple forms above or does not compile.
    public static func matchingExample(for pattern: String) -> String? {
        guard let text = example(for: pattern), (try? ECMARegex(pattern))?.matches(text) == true else { return nil }
        return text
    }

    private struct Parser {
        let scalars: [Unicode.Scalar]
        var position = 0

        /// `a|b`: the first alternative.
        mutating func alternatives() -> String? {
            guard let first = sequence() else { return nil }
            while position < scalars.count, scalars[position] == "|" {
                position += 1
                guard sequence() != nil else { return nil }
            }
            return first
        }

        mutating func sequence() -> String? {
            var text = ""
            while position < scalars.count, scalars[position] != "|", scalars[position] != ")" {
                guard let atom = atom() else { return nil }
                let (minimum, _) = quantifier()
                text += String(repeating: atom, count: minimum)
            }
            return text
        }

        mutating func atom() -> String? {
            let scalar = scalars[position]
            position += 1
            switch scalar {
            case "^", "$": return ""
            case ".": return "a"
            case "(":
                if position + 1 < scalars.count, scalars[position] == "?", scalars[position + 1] == ":" { position += 2 }
                guard let inner = alternatives(), position < scalars.count, scalars[position] == ")" else { return nil }
                position += 1
                return inner
            case "[": return characterClass()
            case "\\": return escape()
            case "*", "+", "?", "{", ")", "]": return nil
            default: return String(scalar)
            }
        }

        mutating func escape() -> String? {
            guard position < scalars.count else { return nil }
            let scalar = scalars[position]
            position += 1
            switch scalar {
            case "d": return "0"
            case "w": return "a"
            case "s": return " "
            case "D", "W", "S", "b", "B", "p", "P", "k", "u", "x", "c": return scalar == "D" || scalar == "W" ? "-" : nil
            case "n": return "\n"
            case "t": return "\t"
            default: return String(scalar)
            }
        }

        /// `[a-z0-9-]`: the first character it admits; negated classes give up.
        mutating func characterClass() -> String? {
            guard position < scalars.count, scalars[position] != "^" else { return nil }
            var first: String? = nil
            while position < scalars.count, scalars[position] != "]" {
                var scalar = scalars[position]
                position += 1
                if scalar == "\\" {
                    guard let escaped = escape() else { return nil }
                    first = first ?? escaped
                    continue
                }
                if position + 1 < scalars.count, scalars[position] == "-", scalars[position + 1] != "]" {
                    position += 2
                    scalar = scalars[position - 2 - 1] == "\\" ? scalar : scalar
                }
                first = first ?? String(scalar)
            }
            guard position < scalars.count else { return nil }
            position += 1
            return first
        }

        /// The minimum and maximum count of the quantifier at `position`, consumed; (1, 1) without one.
        mutating func quantifier() -> (Int, Int?) {
            guard position < scalars.count else { return (1, 1) }
            var result: (Int, Int?)
            switch scalars[position] {
            case "?": result = (0, 1)
            case "*": result = (0, nil)
            case "+": result = (1, nil)
            case "{":
                var end = position + 1
                while end < scalars.count, scalars[end] != "}" { end += 1 }
                guard end < scalars.count else { return (1, 1) }
                let body = String(String.UnicodeScalarView(scalars[(position + 1)..<end]))
                let parts = body.split(separator: ",", omittingEmptySubsequences: false)
                guard let minimum = parts.first.flatMap({ Int($0) }) else { return (1, 1) }
                position = end
                result = (minimum, parts.count > 1 ? Int(parts[1]) : minimum)
            default: return (1, 1)
            }
            position += 1
            if position < scalars.count, scalars[position] == "?" { position += 1 }  // lazy
            return result
        }
    }
}
