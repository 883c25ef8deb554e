import ContractJSON

/// The official meta-schemas, bundled so that no reference ever needs the network.
enum MetaSchemas {
    /// Every bundled meta-schema, parsed; a bundled text that fails to parse would be a build defect.
    static let all: [(uri: String, document: JSONValue)] = (draft202012 + draft7).compactMap { entry in
        guard let document = try? JSONParser(tracksLocations: false).parse(entry.text).value else { return nil }
        return (entry.uri, document)
    }
}
