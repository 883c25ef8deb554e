import ContractRequests
import Foundation

#if canImport(Testing)
import Testing
#endif
#if canImport(XCTest)
import XCTest
#endif

/// Which test sent a request, for usage records (``UsageRecord/test``). One form per framework,
/// the same on Linux and Apple platforms, with nothing of one run in it (no address, argument
/// value or source location), so the records of two runs name a test alike:
///
/// - Swift Testing: `Module.Suite/function()` (`MarketAppTests.MarketClientTests/fetchesAProduct()`),
///   nested suites joined with dots, `Module/function()` for a test outside a suite; the cases
///   of a parameterized test share their function's name.
/// - XCTest: `Module.Class/testMethod` (`MarketAppTests.MarketClientTests/testFetch`), where
///   Linux names the test `MarketClientTests.testFetch` and Apple platforms
///   `-[MarketClientTests testFetch]`.
///
/// Like ``TestIssue``, the one other place that touches the frameworks, and with its guards.
enum RunningTest {
    /// The Swift Testing test the caller runs in, nil off its task (on `URLSession`'s threads).
    static var swiftTesting: String? {
        #if canImport(Testing)
        guard let id = Test.current?.id else { return nil }
        return UsageNames.swiftTesting(module: id.moduleName, path: id.nameComponents)
        #else
        return nil
        #endif
    }

    /// The test running where a stub is made: its Swift Testing test, else XCTest's running test.
    /// Starts following XCTest's tests (once per process), as a stub that records usage needs.
    static func atStubInit() -> String? {
        if let name = swiftTesting { return name }
        #if canImport(XCTest)
        return XCTestTracker.shared.running
        #else
        return nil
        #endif
    }

    /// Writes `record` with the name of the test that sent it: the Swift Testing test the caller
    /// runs in; else, for a stub made in a Swift Testing test, that test (its requests come back
    /// on `URLSession`'s threads, where no test can be seen); else XCTest's running test; else
    /// the test that made the stub, or none.
    ///
    /// XCTest says which test runs only as one starts, so the requests of the test running when
    /// the process started following them (its first stub that records) are held, and written
    /// with the test's name when it ends.
    static func write(_ record: UsageRecord, to recorder: UsageRecorder, stubMadeIn maker: String?, makerIsSwiftTesting: Bool) {
        var record = record
        if let name = swiftTesting {
            record.test = name
        } else if makerIsSwiftTesting {
            record.test = maker
        } else {
            record.test = maker
            #if canImport(XCTest)
            guard XCTestTracker.shared.name(&record, recorder: recorder) else { return }
            #endif
        }
        recorder.record(record)
    }
}

#if canImport(XCTest)
/// Follows XCTest's running test, for usage records: registered with XCTest's observation center
/// once, by the first stub that records usage (none otherwise).
final class XCTestTracker: NSObject, XCTestObservation, @unchecked Sendable {
    static let shared: XCTestTracker = {
        let tracker = XCTestTracker()
        tracker.register()
        // A process that ends while the held records wait for a test's end (a Swift Testing run,
        // where XCTest never starts one) still writes them, without a name.
        atexit { XCTestTracker.shared.write(XCTestTracker.shared.takeHeld(), named: nil) }
        return tracker
    }()

    private enum State {
        /// Just registered: a test may be running whose start came before.
        case unknown
        case running(String)
        case between
    }

    private let lock = NSLock()
    private var state = State.unknown
    /// The records made while ``State/unknown``, each with the recorder to write it to.
    private var held: [(UsageRecord, UsageRecorder)] = []
    /// `Module.Class` by test class: a suite's thousands of tests are of a few hundred classes.
    private var classNames: [ObjectIdentifier: String] = [:]

    /// The running test's name, nil between tests or before the first start is seen.
    var running: String? {
        lock.locked {
            if case .running(let name) = state { name } else { nil }
        }
    }

    /// Apple's XCTest takes observers on the main thread only (it stops the process otherwise),
    /// so a stub made on another thread has it done there, as soon as the main thread runs its
    /// queue; swift-corelibs-xctest keeps a set, at the next event.
    private func register() {
        if Thread.isMainThread {
            MainActor.assumeIsolated { XCTestObservationCenter.shared.addTestObserver(self) }
        } else {
            #if canImport(Darwin)
            DispatchQueue.main.async { MainActor.assumeIsolated { XCTestObservationCenter.shared.addTestObserver(self) } }
            #else
            XCTestObservationCenter.shared.addTestObserver(self)
            #endif
        }
    }

    /// Names `record` with the running test; false when it is held until the running test ends.
    func name(_ record: inout UsageRecord, recorder: UsageRecorder) -> Bool {
        lock.locked {
            switch state {
            case .running(let name):
                record.test = name
                return true
            case .between:
                return true
            case .unknown:
                held.append((record, recorder))
                return false
            }
        }
    }

    func testCaseWillStart(_ testCase: XCTestCase) {
        let name = name(of: testCase)
        // Held records made before this test started were sent between tests.
        write(takeHeld(then: .running(name)), named: nil)
    }

    func testCaseDidFinish(_ testCase: XCTestCase) {
        let held = takeHeld(then: .between)
        // Only the test running when the tracker was registered has records to name here.
        guard !held.isEmpty else { return }
        write(held, named: name(of: testCase))
    }

    /// The held records, none left held, and the state then (nil: as it is).
    private func takeHeld(then next: State? = nil) -> [(UsageRecord, UsageRecorder)] {
        lock.locked {
            defer { held.removeAll() }
            if let next { state = next }
            return held
        }
    }

    /// Writes held records, with `name` when it is the test they were sent in.
    private func write(_ records: [(UsageRecord, UsageRecorder)], named name: String?) {
        for (record, recorder) in records {
            var record = record
            if let name { record.test = name }
            recorder.record(record)
        }
    }

    /// `Module.Class/testMethod`, the same on every platform; each class's name is made once.
    private func name(of testCase: XCTestCase) -> String {
        let type = type(of: testCase)
        let className = lock.locked { classNames[ObjectIdentifier(type)] } ?? {
            let made = UsageNames.xcTestClass(String(reflecting: type))
            lock.locked { classNames[ObjectIdentifier(type)] = made }
            return made
        }()
        return className + "/" + UsageNames.xcTestMethod(testCase.name)
    }
}
#endif

/// The names usage records give tests (``RunningTest``), from what the frameworks say.
@_spi(Usage) public enum UsageNames {
    /// `Module.Suite.Inner/function()` from a Swift Testing test's module and the names down to
    /// it (`Test.ID`'s components: suites, then the function).
    public static func swiftTesting(module: String, path: [String]) -> String {
        guard let test = path.last else { return module }
        return ([module] + path.dropLast()).joined(separator: ".") + "/" + test
    }

    /// `Module.Class` of a test case's type as `String(reflecting:)` gives it, without the
    /// `(unknown context at $10b4c2f10)` a private class's name holds, an address of one run.
    public static func xcTestClass(_ reflected: String) -> String {
        var name = reflected
        while let start = name.range(of: "(unknown context at "), let end = name[start.upperBound...].firstIndex(of: ")") {
            var through = name.index(after: end)
            if through < name.endIndex, name[through] == "." { through = name.index(after: through) }
            name.removeSubrange(start.lowerBound..<through)
        }
        return name
    }

    /// `testFetch` of an XCTest test named `MarketClientTests.testFetch` (Linux) or
    /// `-[MarketClientTests testFetch]` (Apple platforms).
    public static func xcTestMethod(_ name: String) -> String {
        // By bytes: a name is split once per test, and by characters it cost a tenth of a stub's answer.
        let bytes = name.utf8
        if bytes.first == UInt8(ascii: "-"), bytes.last == UInt8(ascii: "]"), let space = bytes.lastIndex(of: UInt8(ascii: " ")) {
            return String(Substring(bytes[bytes.index(after: space)..<bytes.index(before: bytes.endIndex)]))
        }
        guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")) else { return name }
        return String(Substring(bytes[bytes.index(after: dot)...]))
    }
}
