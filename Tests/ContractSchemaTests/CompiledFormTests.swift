@testable import ContractSchema
import Testing

/// Properties of the compiled form that validation speed depends on.
struct CompiledFormTests {
    /// A keyword is read once per applied schema per value: it must copy as plain bytes, with no
    /// reference counting. A payload that holds a class, array or string directly breaks this.
    @Test func keywordIsTriviallyCopyable() {
        #expect(_isPOD(Keyword.self))
    }

    @Test func everyKnownFormatHasItsSchemaName() {
        #expect(KnownFormat(rawValue: "date-time") == .dateTime)
        #expect(KnownFormat(rawValue: "relative-json-pointer") == .relativeJSONPointer)
        #expect(FormatChecker.knownFormats.count == 19)
    }
}
