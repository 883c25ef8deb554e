import ContractJSON
import ContractModel
import Testing

/// A large contract holds every case at once, so what most cases leave empty is kept out of
/// line; read and compared, those parts behave as the stored fields they replace.
struct ContractCaseLayoutTests {
    static let plain = ContractCase(name: "a", response: ResponseExpectation(status: .success), pointer: JSONPointer(tokens: ["cases", "0"]))

    /// Inline, a case was 280 bytes whatever it held (summary, tags, setup, teardown, captures, a
    /// request body, its schema and a link, each with room for itself); with its rare parts out of
    /// line, 160. Its two pointers (its own and its schema's) then grew from 8 bytes to 24, since a
    /// short pointer holds its text itself (`JSONPointerFormsTests`): `/cases/12345` was a heap
    /// block of 64 bytes beside the case and is now none, so 192 bytes holds more than 160 did.
    @Test func aCaseIsAtMostSixTenthsOfItsFormerSizeBesideItsPointers() {
        #expect(MemoryLayout<JSONPointer>.stride <= 24, "\(MemoryLayout<JSONPointer>.stride) bytes")
        #expect(MemoryLayout<ContractCase>.stride - 2 * (MemoryLayout<JSONPointer>.stride - 8) <= 280 * 6 / 10, "\(MemoryLayout<ContractCase>.stride) bytes")
    }

    /// A schema's pointer is its case's and a named end (`/response/schema`), so a large contract
    /// holds no block for it (`/cases/12345/response/schema` is too long to be held inline); what
    /// names the end sits in the pointer's padding, so the reference is no larger than before.
    @Test func aSchemaReferenceHoldsItsPointerInItsOwnBytes() throws {
        #expect(MemoryLayout<SchemaReference>.size <= MemoryLayout<JSONValue>.stride + 16 + MemoryLayout<JSONPointer>.stride, "\(MemoryLayout<SchemaReference>.size) bytes")
        #expect(MemoryLayout<ContractCase>.stride <= 192, "\(MemoryLayout<ContractCase>.stride) bytes")
        for text in ["/cases/12345/response/schema", "/cases/0/request/schema", "/request/schema", "/response/schema", "/schema", "", "/a~1b/response/schema",
                     "/cases/1/response", "/cases/1/setup/0/response/schema"] {
            let pointer = try JSONPointer(parsing: text)
            var reference = SchemaReference(schema: .bool(true), file: "c.json", pointer: pointer)
            #expect(reference.pointer == pointer)
            #expect(reference.pointer.description == text)
            #expect(reference == SchemaReference(schema: .bool(true), file: "c.json", pointer: JSONPointer(tokens: pointer.tokens)))
            reference.pointer = JSONPointer(tokens: ["x"])
            #expect(reference.pointer.description == "/x")
        }
    }

    @Test func theCasesRarePartsReadAsTheyWereSetAndCompareByValue() throws {
        var changed = Self.plain
        changed.summary = "summary"
        changed.tags.append("smoke")
        let copy = changed
        #expect(changed != Self.plain)
        #expect(changed.summary == "summary" && changed.tags == ["smoke"] && changed.description == nil)
        changed.tags = []
        #expect(copy.tags == ["smoke"])
        changed.summary = nil
        // Emptied again, the case equals one that never had them, and hashes the same.
        #expect(changed == Self.plain)
        #expect(changed.hashValue == Self.plain.hashValue)
        let full = ContractCase(
            name: "b", summary: "s", description: "d", tags: ["t"], setup: [], response: ResponseExpectation(status: .success),
            captures: [SetupStep.Capture(variable: "id", pointer: JSONPointer(tokens: ["id"]))], pointer: .root)
        #expect(full.summary == "s" && full.description == "d" && full.tags == ["t"] && full.captures.map(\.variable) == ["id"])
        #expect(full.setup.isEmpty && full.teardown.isEmpty)
    }

    @Test func theRequestsRarePartsReadAsTheyWereSetAndCompareByValue() throws {
        var request = CaseRequest(headers: [HeaderField(name: "Accept", value: nil)])
        let plain = request
        request.body = .json(.string("x"))
        request.url = try TemplateString(parsing: "${capture:next}")
        #expect(request != plain)
        #expect(request.body == .json(.string("x")) && request.url != nil && request.schema == nil)
        request.body = nil
        request.url = nil
        #expect(request == plain)
        #expect(request.hashValue == plain.hashValue)
        let schema = SchemaReference(schema: .bool(true), file: "c.json", pointer: JSONPointer(tokens: ["schema"]))
        #expect(CaseRequest(schema: schema).schema == schema)
    }
}
