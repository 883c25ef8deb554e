import Testing

@testable import ContractDiff

/// What a flow holds a server to (`values`, captures, followed links, setup and teardown) is the
/// server's behaviour over several requests, not the shape a client reads from one response:
/// `contract diff` reports no change for it, and reads a header's `differs` as `present`.
struct FlowDiffTests {
    static let step = #""setup":[{"name":"make","request":{"method":"POST","path":"/things"},"capture":{"id":"/id","next":{"header":"Link","pattern":"<([^>]*)>"}}}]"#

    static func flow(values: String, header: String = #""ETag":{"present":true}"#, request: String = #"{"url":"${capture:next}"}"#) -> [String: String] {
        ["things.json": #"{"id":"things","request":{"method":"GET","path":"/things"},"cases":[{"name":"ok",\#(step),"request":\#(request),"#
            + #""capture":{"own":"/id"},"response":{"status":200,"headers":{\#(header)},"values":\#(values)}}]}"#]
    }

    @Test func editsToAFlowAreNoChangeForAClient() throws {
        // The request follows a link now, to the same endpoint.
        let old = Self.flow(values: #"{"/id":"${capture:id}","/n":{"after":1}}"#, request: "{}")
        let new = Self.flow(values: #"{"/id":{"differs":"${capture:id}"},"/tags":{"someElement":{"":"x"}},"/gone":{"present":false}}"#)
        let result = try DiffTrees.diff(old, new)
        #expect(result.changes.isEmpty, "\(DiffTrees.shown(result))")
    }

    @Test(arguments: [
        (#""ETag":{"present":true}"#, #""ETag":{"differs":"${capture:id}"}"#),
        (#""ETag":{"differs":"${capture:id}"}"#, #""ETag":{"present":true}"#),
        (#""ETag":{"differs":"${capture:id}"}"#, #""ETag":{"differs":"${capture:next}"}"#),
    ])
    func aHeaderThatMustDifferIsAHeaderThatComes(_ old: String, _ new: String) throws {
        let result = try DiffTrees.diff(Self.flow(values: "{}", header: old), Self.flow(values: "{}", header: new))
        #expect(result.changes.isEmpty, "\(DiffTrees.shown(result))")
    }

    @Test func aHeaderThatMustDifferAndIsDroppedIsReported() throws {
        let result = try DiffTrees.diff(Self.flow(values: "{}", header: #""ETag":{"differs":"${capture:id}"}"#), Self.flow(values: "{}", header: #""X-Other":{"present":true}"#))
        #expect(result.changes.map(\.rule).contains("response-header-removed"), "\(DiffTrees.shown(result))")
    }
}
