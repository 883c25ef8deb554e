/// Realistic values for string formats and plain strings, chosen by the seed.
enum FormatExamples {
    static let words = ["Pencil", "Notebook", "Morning Glory", "Eraser", "Desk lamp", "Paper clip", "Stapler", "Marker"]

    static func example(_ format: String, random: inout SeededRandom) -> String? {
        let pick = random.next(below: 9)
        switch format {
        case "date-time": return "2026-01-0\(pick + 1)T09:30:00Z"
        case "date": return "2026-01-0\(pick + 1)"
        case "time": return "09:30:0\(pick)Z"
        case "duration": return "PT\(pick + 1)H"
        case "email", "idn-email": return "user\(pick)@example.com"
        case "hostname", "idn-hostname": return "api\(pick).example.com"
        case "ipv4": return "192.0.2.\(pick + 1)"
        case "ipv6": return "2001:db8::\(pick + 1)"
        case "uri", "iri": return "https://example.com/items/\(pick + 1)"
        case "uri-reference", "iri-reference": return "/items/\(pick + 1)"
        case "uri-template": return "https://example.com/items/{id}"
        case "uuid":
            let hex = String(random.next() & 0xFFFF_FFFF_FFFF, radix: 16)
            return "3f2b8c1e-7d4a-4e8b-9c2d-" + String(repeating: "0", count: 12 - hex.count) + hex
        case "json-pointer": return "/items/\(pick)"
        case "relative-json-pointer": return "\(pick)/name"
        case "regex": return "^[a-z]+$"
        default: return nil
        }
    }
}
