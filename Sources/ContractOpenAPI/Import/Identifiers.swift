/// Names from the document made into the names contracts allow.
enum Identifiers {
    /// A contract or case identifier (letters, digits, `.`, `_`, `-`, starting with a letter or
    /// digit): other characters become `-`, runs of them one `-`.
    static func identifier(_ text: String) -> String {
        var result = ""
        for character in text.unicodeScalars {
            if character.isASCII, character.properties.isAlphabetic || ("0"..."9").contains(character) || character == "." || character == "_" {
                result.unicodeScalars.append(character)
            } else if character == "-" || !result.hasSuffix("-") {
                result += "-"
            }
        }
        while let first = result.first, !(first.isLetter || first.isNumber) { result.removeFirst() }
        while result.hasSuffix("-") { result.removeLast() }
        return result.isEmpty ? "operation" : result
    }

    /// A file name that means the same file on every file system: an identifier, which also keeps
    /// `..`, `/` and `\` out.
    static func fileSafe(_ text: String) -> String {
        identifier(text)
    }

    /// A path placeholder name (letters, digits, `_`, not starting with a digit).
    static func placeholder(_ text: String) -> String {
        var result = String(text.unicodeScalars.map { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) ? Character($0) : "_" })
        if result.first?.isNumber != false { result = "_" + result }
        return result
    }

    /// An environment variable name for a security scheme: `marketToken` -> `MARKET_TOKEN`,
    /// `api-key` -> `API_KEY`.
    static func environmentVariable(_ text: String) -> String {
        var result = ""
        var previous: Character?
        for character in text {
            if character.isLetter || character.isNumber, character.isASCII {
                if character.isUppercase, let previous, previous.isLowercase || previous.isNumber { result += "_" }
                result += character.uppercased()
            } else if !result.hasSuffix("_") {
                result += "_"
            }
            previous = character
        }
        while result.hasSuffix("_") { result.removeLast() }
        if result.first?.isNumber != false { result = "API_" + result }
        return result
    }

    /// `base`, else `base<separator>2`, `base<separator>3`…: the first whose `key` is not yet in
    /// `taken`, which it then joins. A lowercased key keeps names apart on file systems that
    /// ignore case.
    static func unique(_ base: String, separator: String, taken: inout Set<String>, key: (String) -> String = { $0 }) -> String {
        var candidate = base
        var suffix = 2
        while !taken.insert(key(candidate)).inserted {
            candidate = base + separator + String(suffix)
            suffix += 1
        }
        return candidate
    }
}
