import ContractJSON
import Testing

struct JSONTapeTests {
    @Test func rebuildsTheValueItWasMadeFrom() throws {
        let text = #"{"a": [1, 2.5, "x", null, true, {"b": []}], "": {}, "é": "\u0000", "big": 123456789012345678901234567890}"#
        let value = try JSONParser().parse(text).value
        let tape = JSONTape(value)
        #expect(tape.value(at: 0) == value)
        #expect(tape.value(at: 0).objectValue?.keys == value.objectValue?.keys)
    }

    @Test func laysValuesOutInDocumentOrderWithSubtreeEnds() throws {
        let tape = JSONTape(try JSONParser().parse(#"{"k": [true, "s"], "n": 3}"#).value)
        #expect(tape.entries.map(\.kind) == [.object, .string, .array, .bool, .string, .string, .number])
        #expect(tape.entries[0].count == 2)
        #expect(tape.entries[0].end == 7)
        #expect(tape.entries[2].end == 5)
        #expect(tape.string(at: 1) == "k")
        #expect(tape.string(at: 4) == "s")
    }
}
