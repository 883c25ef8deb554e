import ContractModel
import Testing

struct TemplateStringTests {
    @Test func parsesPlaceholdersAndEscapes() throws {
        let template = try TemplateString(parsing: "Bearer ${env:MARKET_TOKEN} for ${capture:id}, cost $5, literal $${env:X}")
        #expect(template.segments == [
            .literal("Bearer "), .env("MARKET_TOKEN"), .literal(" for "), .capture("id"), .literal(", cost $5, literal ${env:X}"),
        ])
        #expect(template.environmentVariables == ["MARKET_TOKEN"])
        #expect(template.capturedVariables == ["id"])
        #expect(template.description == "Bearer ${env:MARKET_TOKEN} for ${capture:id}, cost $5, literal $${env:X}")
    }

    /// A text without placeholders has one form however it was made (parsed, a literal, literal
    /// segments), so it compares and hashes alike, and reads back as one literal segment.
    @Test func aLiteralTextHasOneFormHoweverItIsMade() throws {
        let forms = [
            try TemplateString(parsing: "cost $5, literal $${env:X}"), TemplateString(literal: "cost $5, literal ${env:X}"),
            TemplateString(segments: [.literal("cost $5, "), .literal("literal ${env:X}")]),
        ]
        for form in forms {
            #expect(form == forms[0])
            #expect(form.hashValue == forms[0].hashValue)
            #expect(form.literalText == "cost $5, literal ${env:X}")
            #expect(form.segments == [.literal("cost $5, literal ${env:X}")])
            #expect(form.description == "cost $5, literal $${env:X}")
            #expect(!form.mentionsEnvironment && form.capturedVariables.isEmpty && form.uniqueNames.isEmpty)
        }
        #expect(TemplateString(literal: "") == TemplateString(segments: []))
        #expect(TemplateString(literal: "").segments.isEmpty)
        let withPlaceholder = try TemplateString(parsing: "Bearer ${env:TOKEN}")
        #expect(withPlaceholder.literalText == nil)
        #expect(withPlaceholder.mentionsEnvironment)
        var changed = withPlaceholder
        changed.segments = [.literal("Bearer x")]
        #expect(changed == TemplateString(literal: "Bearer x"))
    }

    @Test(arguments: [
        ("${env:TOKEN", "unterminated placeholder '${env:TOKEN', expected '}' (write '$${' for a literal '${')"),
        ("${TOKEN}", "placeholder '${TOKEN}' needs a kind, expected '${env:NAME}', '${capture:NAME}' or '${unique:NAME}'"),
        ("${env:}", "placeholder '${env:}' has an invalid name '', expected letters, digits and '_', not starting with a digit"),
        ("${env:1A}", "placeholder '${env:1A}' has an invalid name '1A', expected letters, digits and '_', not starting with a digit"),
        ("${secret:A}", "placeholder '${secret:A}' has an unknown kind 'secret', expected 'env', 'capture' or 'unique'"),
        ("${Env:A}", "placeholder '${Env:A}' has an unknown kind 'Env', expected 'env', 'capture' or 'unique', did you mean 'env'?"),
    ])
    func rejectsMalformedPlaceholders(_ text: String, _ message: String) {
        #expect(throws: TemplateSyntaxError(message: message)) { try TemplateString(parsing: text) }
    }
}

struct PathTemplateTests {
    @Test func findsPlaceholders() throws {
        let path = try PathTemplate(parsing: "/api/shops/{shop_id}/products/{id}.json")
        #expect(path.placeholders == ["shop_id", "id"])
        #expect(path.description == "/api/shops/{shop_id}/products/{id}.json")
    }

    @Test(arguments: [
        ("/a/{id", "'path' has a '{' without a closing '}', in \"/a/{id\""),
        ("/a/id}", "'path' has a '}' without a '{' before it, in \"/a/id}\""),
        ("/a/{}", "'path' has an invalid placeholder '{}': names are letters, digits and '_', not starting with a digit"),
        ("/a#top", "'path' must not contain '#': a fragment is never sent to a server, found \"/a#top\""),
    ])
    func rejectsMalformedPaths(_ text: String, _ message: String) {
        #expect(throws: TemplateSyntaxError(message: message)) { try PathTemplate(parsing: text) }
    }
}

struct StatusExpectationTests {
    @Test func acceptsCodesAndClasses() {
        let status = StatusExpectation([.code(200), .class(3)])
        #expect(status.accepts(200))
        #expect(status.accepts(304))
        #expect(!status.accepts(201))
        #expect(status.description == "200 or 3XX")
        #expect(StatusExpectation([.code(200), .code(201), .class(2)]).description == "200, 201 or 2XX")
    }
}
