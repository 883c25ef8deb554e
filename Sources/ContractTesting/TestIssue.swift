import Foundation

#if canImport(Testing)
import Testing
#endif
#if canImport(XCTest)
import XCTest
#endif

/// Fails the running test with a message, in Swift Testing or XCTest, so a request that breaks its
/// contract fails the test without the test author writing an assertion.
///
/// ContractTesting imports both frameworks (when the platform has them) for this one thing: it
/// is linked into test targets only, which link them already, so nothing new reaches an app
/// (swift-snapshot-testing's library does the same). A stub answers on `URLSession`'s threads,
/// where Swift Testing does not know the running test (its task-local is not there); a stub made
/// inside a Swift Testing test therefore keeps the message and records it in the test's own task:
/// at the stub's next call from the test, or when the test releases it. XCTest knows its
/// running test from any thread, so there the failure is recorded at once.
enum TestIssue {
    /// Whether the caller runs inside a Swift Testing test.
    static var inSwiftTestingTest: Bool {
        #if canImport(Testing)
        Test.current != nil
        #else
        false
        #endif
    }

    /// The running Swift Testing test's name (`aRequestGetsItsFixture()`), nil outside one.
    static var currentTestName: String? {
        #if canImport(Testing)
        Test.current?.name
        #else
        nil
        #endif
    }

    /// Records `message` as a failure of the running test: Swift Testing's, when the caller is in
    /// one, else XCTest's (which ignores it outside a test). False when neither could take it.
    @discardableResult
    static func record(_ message: String, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) -> Bool {
        #if canImport(Testing)
        if Test.current != nil {
            Issue.record(Comment(rawValue: message), sourceLocation: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
            return true
        }
        #endif
        return recordInXCTest(message, fileID: fileID, line: line)
    }

    /// Records `message` as a failure of XCTest's running test, from any thread; nothing when
    /// XCTest runs no test. False when the platform has no XCTest.
    @discardableResult
    static func recordInXCTest(_ message: String, fileID: String, line: Int) -> Bool {
        #if canImport(XCTest)
        // XCTFail places a failure by a `StaticString` file: the caller's place goes in the text.
        XCTFail("\(message)\n(at \(fileID):\(line))")
        return true
        #else
        return false
        #endif
    }
}
