import ContractModel
import ContractRequests
import Foundation

/// `--header 'Name: value'`: a header sent with every request. Its value may be a credential, so
/// no message ever shows it, not even when the colon is missing and the whole text could be one.
enum HeaderArgument {
    static func parse(_ text: String) throws(DiagnosticsError) -> HeaderField {
        guard let colon = text.firstIndex(of: ":"), colon > text.startIndex else {
            throw DiagnosticsError(argument: "--header must be 'Name: value'; one has no ':' after a name (its text is not shown, as it may hold a secret)")
        }
        let name = String(text[..<colon])
        try checkName(name)
        let value: TemplateString
        do throws(TemplateSyntaxError) {
            value = try TemplateString(parsing: text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        } catch {
            throw DiagnosticsError(argument: "--header '\(name)': \(error.message)")
        }
        let field = HeaderField(name: name, value: value)
        try check(field)
        return field
    }

    /// What a header given to the verifier must be, from the command line or a library caller.
    static func check(_ field: HeaderField) throws(DiagnosticsError) {
        try checkName(field.name)
        guard let value = field.value else { return }
        guard value.capturedVariables.isEmpty else {
            throw DiagnosticsError(argument: 
                "--header '\(field.name)': a header given here may use ${env:NAME}, not ${capture:…}, which only a case's setup steps define")
        }
        // A line break would end the field and start another one of the sender's choosing.
        for case .literal(let literal) in value.segments where FieldSyntax.forbiddenCharacter(inValue: literal) != nil {
            throw DiagnosticsError(argument: 
                "--header '\(field.name)': its value has a line break or another control character, which no header value may have (the value is not shown, as it may be a secret)")
        }
    }

    private static func checkName(_ name: String) throws(DiagnosticsError) {
        guard !name.isEmpty else { throw DiagnosticsError(argument: "--header must be 'Name: value'; one has an empty name") }
        guard let bad = name.unicodeScalars.first(where: { !($0.isASCII && FieldSyntax.isTokenByte(UInt8($0.value))) }) else { return }
        let shown = ShownText.escaped(String(bad))
        throw DiagnosticsError(argument: 
            "--header '\(ShownText.escaped(name))': a header name cannot have '\(shown)' (only letters, digits and !#$%&'*+-.^_`|~)")
    }
}
