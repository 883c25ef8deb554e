import Testing

@testable import ContractDiff

struct ChangeTests {
    @Test func aFingerprintNamesWhatChangedNotItsValues() {
        let change = Change(
            rule: "response-type-changed", severity: .breaking, contractID: "products.get", caseName: "found", subject: "response body /price",
            message: "type changed from number to string", old: nil, new: nil)
        var other = change
        other.message = "type changed from integer to string"
        #expect(change.fingerprint == other.fingerprint)
        other.subject = "response body /name"
        #expect(change.fingerprint != other.fingerprint)
        #expect(change.fingerprint.count == 16)
    }
}
