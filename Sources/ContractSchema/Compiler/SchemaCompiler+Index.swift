import ContractJSON

extension SchemaCompiler {
    /// Records every resource and anchor of a registered document, once.
    @discardableResult
    func indexDocument(_ uri: String) -> Bool {
        if indexedDocuments.contains(uri) { return true }
        guard let document = registry.document(at: uri) else { return false }
        indexedDocuments.insert(uri)
        let base = URIReference(parsing: uri)
        var dialect = DialectInfo(dialect: defaultDialect, vocabularies: nil)
        if let schema = document.objectValue?["$schema"]?.stringValue {
            dialect = dialectInfo(metaSchema: schema, fallback: dialect)
        }
        if resources[uri] == nil { resources[uri] = Location(document: uri, pointer: .root) }
        index(document, at: Location(document: uri, pointer: .root), base: base, dialect: dialect)
        return true
    }

    private func index(_ value: JSONValue, at location: Location, base: URIReference, dialect: DialectInfo) {
        guard let object = value.objectValue else { return }
        var base = base
        var dialect = dialect
        if let id = object["$id"]?.stringValue, Self.idApplies(object, dialect: dialect.dialect) {
            if dialect.dialect == .draft7 && id.hasPrefix("#") {
                anchors[base.withoutFragment.description + id] = location
            } else {
                let resolved = base.resolving(id)
                base = resolved.withoutFragment
                if resources[base.description] == nil { resources[base.description] = location }
                if let fragment = resolved.fragment, !fragment.isEmpty, dialect.dialect == .draft7 {
                    anchors[base.description + "#" + fragment] = location
                }
                if let schema = object["$schema"]?.stringValue {
                    dialect = dialectInfo(metaSchema: schema, fallback: dialect)
                }
            }
        }
        if dialect.dialect == .draft2020_12 {
            if let anchor = object["$anchor"]?.stringValue {
                anchors[base.description + "#" + anchor] = location
            }
            if let anchor = object["$dynamicAnchor"]?.stringValue {
                anchors[base.description + "#" + anchor] = location
                dynamicAnchorNames[base.description, default: []].insert(anchor)
            }
        }
        // Subschemas beside a draft 7 `$ref` do not validate, but references may still point into
        // them (`definitions` most of all), so they are indexed like any other.
        for member in object {
            let pointer = location.pointer.appending(member.key)
            if DialectInfo.singleSubschemaKeywords.contains(member.key), member.value.objectValue != nil {
                index(member.value, at: Location(document: location.document, pointer: pointer), base: base, dialect: dialect)
            }
            if DialectInfo.subschemaArrayKeywords.contains(member.key), let elements = member.value.arrayValue {
                for (position, element) in elements.enumerated() {
                    index(element, at: Location(document: location.document, pointer: pointer.appending(position)), base: base, dialect: dialect)
                }
            }
            if DialectInfo.subschemaMapKeywords.contains(member.key), let map = member.value.objectValue {
                for entry in map {
                    index(entry.value, at: Location(document: location.document, pointer: pointer.appending(entry.key)), base: base, dialect: dialect)
                }
            }
        }
    }

    /// In draft 7, `$ref` makes every sibling keyword, `$id` included, be ignored.
    static func idApplies(_ object: JSONObject, dialect: SchemaDialect) -> Bool {
        !(dialect == .draft7 && object["$ref"] != nil)
    }

    /// The base URI, dialect and resource of the schema at `location`, found by walking from the
    /// document root along the pointer and applying every `$id` and `$schema` on the way.
    func scope(at location: Location, document: JSONValue) -> Scope {
        var base = URIReference(parsing: location.document)
        var dialect = DialectInfo(dialect: defaultDialect, vocabularies: nil)
        var value = document
        func apply(_ value: JSONValue, isRoot: Bool) {
            guard let object = value.objectValue else { return }
            // A root's `$schema` sets the dialect its own `$id` is read in (draft 7 ignores an `$id`
            // beside `$ref`), as indexing does; deeper, only a resource's `$schema` counts.
            if isRoot, let schema = object["$schema"]?.stringValue {
                dialect = dialectInfo(metaSchema: schema, fallback: dialect)
            }
            let id = object["$id"]?.stringValue.flatMap { id -> String? in
                guard Self.idApplies(object, dialect: dialect.dialect), !(dialect.dialect == .draft7 && id.hasPrefix("#")) else { return nil }
                return id
            }
            if !isRoot, id != nil, let schema = object["$schema"]?.stringValue {
                dialect = dialectInfo(metaSchema: schema, fallback: dialect)
            }
            if let id { base = base.resolving(id).withoutFragment }
        }
        apply(value, isRoot: true)
        for token in location.pointer.tokens {
            switch value {
            case .object(let object): value = object[token] ?? .null
            case .array(let elements): value = JSONPointer.arrayIndex(token).flatMap { $0 < elements.count ? elements[$0] : nil } ?? .null
            default: value = .null
            }
            apply(value, isRoot: false)
        }
        return Scope(base: base, dialect: dialect, resource: resourceInfo(base.description))
    }

    func resourceInfo(_ uri: String) -> SchemaResourceInfo {
        if let existing = resourceInfos[uri] { return existing }
        let info = SchemaResourceInfo(uri: uri)
        resourceInfos[uri] = info
        resourcesNeedingAnchors.append(info)
        return info
    }

    /// The dialect a `$schema` names: a standard one, or a custom meta-schema's (with its vocabularies).
    func dialectInfo(metaSchema: String, fallback: DialectInfo, depth: Int = 0) -> DialectInfo {
        if let dialect = SchemaDialect(metaSchemaURI: metaSchema) { return DialectInfo(dialect: dialect, vocabularies: nil) }
        let uri = URIReference(parsing: metaSchema).withoutFragment.description
        guard depth < 8, !isOtherRoot(uri), let document = registry.document(at: uri)?.objectValue else { return fallback }
        var info = fallback
        if let parent = document["$schema"]?.stringValue {
            info = dialectInfo(metaSchema: parent, fallback: fallback, depth: depth + 1)
        }
        if let vocabulary = document["$vocabulary"]?.objectValue {
            info.vocabularies = Set(vocabulary.keys)
        }
        return info
    }

    /// Where an absolute reference points; nil (with a problem recorded) when nothing is there.
    func resolve(_ reference: URIReference, from referrer: Location) -> Location? {
        let resourceURI = reference.withoutFragment.description
        if resources[resourceURI] == nil, !indexDocument(resourceURI) {
            // The resource may be an `$id` inside a document not indexed yet.
            for uri in registry.documents.keys.sorted() where !indexedDocuments.contains(uri) {
                indexDocument(uri)
            }
        }
        guard let resource = resources[resourceURI], !isOtherRoot(resource.document) else {
            report("unresolvable reference '\(reference)': no schema is registered at '\(resourceURI)'", at: referrer, kind: .unresolvableReference)
            return nil
        }
        let fragment = reference.fragment ?? ""
        if fragment.isEmpty { return resource }
        if fragment.hasPrefix("/") {
            guard let pointer = try? JSONPointer(uriFragment: fragment) else {
                report("reference '\(reference)' has an invalid JSON Pointer fragment", at: referrer, kind: .unresolvableReference)
                return nil
            }
            let location = Location(document: resource.document, pointer: JSONPointer(tokens: resource.pointer.tokens + pointer.tokens))
            guard registry.document(at: location.document)?[pointer: location.pointer] != nil else {
                report("reference '\(reference)' points to nothing", at: referrer, kind: .unresolvableReference)
                return nil
            }
            return location
        }
        guard let anchor = anchors[resourceURI + "#" + fragment], !isOtherRoot(anchor.document) else {
            report("reference '\(reference)' names an anchor '\(fragment)' that no schema declares", at: referrer, kind: .unresolvableReference)
            return nil
        }
        return anchor
    }
}
