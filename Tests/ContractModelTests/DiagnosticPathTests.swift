import ContractJSON
import ContractModel
import Testing

/// A diagnostic's path is the file's name, which a checkout or an archive chose: shown, it must
/// not act on the terminal (`ESC [2K` erases the line, a newline starts a fake one).
struct DiagnosticPathTests {
    @Test func controlCharactersInAPathAreShownEscaped() {
        let diagnostic = Diagnostic.error("expected an object", file: "contracts/a\u{1B}[2K\nPASS.json", location: SourceLocation(line: 1, column: 2, offset: 1))
        #expect(diagnostic.rendered == "contracts/a\\u{1B}[2K\\nPASS.json:1:2: error: expected an object")
    }

    @Test func anOrdinaryPathIsUnchanged() {
        let diagnostic = Diagnostic.warning("unused", file: "contracts/products é.json", pointer: JSONPointer(tokens: ["cases", "0"]))
        #expect(diagnostic.rendered == "contracts/products é.json: warning: unused [/cases/0]")
    }
}
