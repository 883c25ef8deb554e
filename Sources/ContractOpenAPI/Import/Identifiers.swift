import ContractModel

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

    /// A file name (before `.json`) that means the same file on every file system: an identifier,
    /// which also keeps `..`, `/` and `\` out, that is a portable name as a contract id must be
    /// (no Windows device, no trailing `.`, not too long), so a contract's file is its id.
    static func fileSafe(_ text: String) -> String {
        portable(identifier(text), as: .contractID)
    }

    /// A contract id (`kind` `.contractID`) or a case name made from `text` that lint accepts: an
    /// identifier that is a fixture path on every platform (`FixturePathName`), and whose
    /// `FixturePathName.collisionKey` is not yet in `taken`, which it then joins. A clash gets
    /// `-2`, `-3`…, clipping the name first when it would grow too long.
    static func uniqueFixtureName(_ text: String, as kind: FixturePathName.Kind, taken: inout Set<String>) -> String {
        let base = portable(identifier(text), as: kind)
        var candidate = base
        var number = 2
        while !taken.insert(FixturePathName.collisionKey(candidate)).inserted {
            let suffix = "-\(number)"
            candidate = portable(String(base.prefix(FixturePathName.maximumLength - suffix.count)) + suffix, as: kind)
            number += 1
        }
        return candidate
    }

    /// `name`, an identifier, changed as little as it takes to be a fixture path on every platform:
    /// a reserved stem gets `_` (`con` -> `con_`, `nul.get` -> `nul_.get`), trailing dots go, a long
    /// name is clipped. The first character is never touched, so it stays an identifier.
    static func portable(_ name: String, as kind: FixturePathName.Kind) -> String {
        var result = name
        // A repair either gives the stem a `_` (no reserved name has one) or shortens the end, and
        // no repair brings back a problem another fixed, so this ends within a few rounds; the
        // bound only guards against a later rule that a repair could undo (lint would report it).
        for _ in 0..<8 {
            switch FixturePathName.problem(with: result, as: kind) {
            case nil:
                return result
            case .windowsDevice, .manifestName:
                let stemEnd = result.firstIndex(of: ".") ?? result.endIndex
                result.insert("_", at: stemEnd)
            case .trailingDot:
                while result.count > 1, result.hasSuffix(".") { result.removeLast() }
            case .tooLong:
                // No dangling `-`, as `identifier` leaves none.
                result = String(result.prefix(FixturePathName.maximumLength))
                while result.count > 1, result.hasSuffix("-") { result.removeLast() }
            }
        }
        return result
    }

    /// A path placeholder name (letters, digits, `_`, not starting with a digit).
    /// `/users/{id}/posts/` → `post`: the last literal segment, singular.
    static func resourceName(ofPath path: String) -> String {
        let last = path.split(separator: "/").last(where: { !$0.hasPrefix("{") }).map(String.init) ?? "item"
        if last.hasSuffix("ies") { return String(last.dropLast(3)) + "y" }
        // `searches`, `boxes`, `classes`: the plural adds `es`.
        if ["ches", "shes", "sses", "xes", "zes"].contains(where: last.hasSuffix) { return String(last.dropLast(2)) }
        if last.hasSuffix("s"), !last.hasSuffix("ss") { return String(last.dropLast()) }
        return last
    }

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

    /// A case name a person would write for a status: `ok`, `created`, `not-found`; a class
    /// (`2XX`) by its meaning; any other status as `status-418`.
    static func statusWord(_ status: String) -> String {
        let words: [String: String] = [
            "200": "ok", "201": "created", "202": "accepted", "203": "non-authoritative", "204": "no-content", "205": "reset-content",
            "206": "partial-content", "207": "multi-status", "300": "multiple-choices", "301": "moved-permanently", "302": "found",
            "303": "see-other", "304": "not-modified", "307": "temporary-redirect", "308": "permanent-redirect", "400": "bad-request",
            "401": "unauthorized", "402": "payment-required", "403": "forbidden", "404": "not-found", "405": "method-not-allowed",
            "406": "not-acceptable", "408": "request-timeout", "409": "conflict", "410": "gone", "411": "length-required",
            "412": "precondition-failed", "413": "content-too-large", "415": "unsupported-media-type", "416": "range-not-satisfiable",
            "422": "unprocessable", "423": "locked", "424": "failed-dependency", "428": "precondition-required", "429": "too-many-requests",
            "500": "server-error", "501": "not-implemented", "502": "bad-gateway", "503": "unavailable", "504": "gateway-timeout",
            "1XX": "informational", "2XX": "success", "3XX": "redirect", "4XX": "client-error", "5XX": "server-error", "default": "default",
        ]
        return words[status.uppercased()] ?? words[status] ?? "status-\(identifier(status))"
    }
}
