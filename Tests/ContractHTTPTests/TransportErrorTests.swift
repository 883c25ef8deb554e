import Testing

@testable import ContractHTTP

/// `TransportError.Kind` is a struct over a private enum, so adding a kind breaks no user; what
/// the reports print for each kind stays as it was (the reports' golden files pin some of them).
struct TransportErrorTests {
    static let printed: [(TransportError.Kind, String)] = [
        (.invalidURL, "invalid URL"), (.dnsFailure, "DNS lookup failed"), (.connectionRefused, "connection refused"),
        (.connectFailed, "could not connect"), (.tls, "TLS failure"), (.timeout, "timed out"),
        (.connectionLost, "connection lost before the response was complete"), (.bodyTooLarge, "body larger than the limit"),
        (.tooManyRedirects, "too many redirects"), (.badContentEncoding, "could not decode the content encoding"),
        (.protocolError, "malformed HTTP response"), (.cancelled, "cancelled"), (.other, "transfer failed"),
    ]

    @Test func everyKindPrintsWhatItDidAndIsOnlyItself() {
        #expect(Self.printed.count == TransportError.Kind.Base.allCases.count, "a kind without its printed words here")
        for (kind, words) in Self.printed {
            #expect(kind.rawValue == words && "\(kind)" == words)
            #expect(TransportError.Kind(rawValue: words) == kind)
            #expect(Self.printed.filter { $0.0 == kind }.count == 1, "\(words)")
        }
        #expect(TransportError(kind: .timeout, detail: "after 5 s").description == "timed out: after 5 s")
        #expect(TransportError(kind: .timeout, detail: "").description == "timed out")
    }

    @Test func unreachableAndTransientKinds() {
        let unreachable = Self.printed.map(\.0).filter { TransportError(kind: $0, detail: "").isUnreachable }
        #expect(unreachable == [.invalidURL, .dnsFailure, .connectionRefused, .connectFailed, .tls])
        let transient = Self.printed.map(\.0).filter { TransportError(kind: $0, detail: "").isTransient }
        #expect(transient == [.dnsFailure, .connectionRefused, .connectFailed, .timeout, .connectionLost])
    }
}
