import Foundation
import Testing

@testable import ContractModel

/// A report path where a device or a named pipe is, is refused with the other report paths,
/// before a run, not after it when the writer refuses it.
struct ReportPathTests {
    @Test func aDeviceOrAPipeIsRefusedBeforeTheRun() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("report-path-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(mkfifo(folder.appendingPathComponent("pipe").path, 0o600) == 0)
        for (argument, what) in [("json=/dev/null", "a device"), ("markdown=\(folder.path)/pipe", "a named pipe")] {
            do {
                _ = try ReportRequest<ReportKindForTest>.checked([argument])
                Issue.record("\(argument) was accepted")
            } catch {
                #expect(error.description.contains("it is \(what), not a file"), "\(error)")
            }
        }
        #expect(try ReportRequest<ReportKindForTest>.checked(["json=\(folder.path)/r.json"]).count == 1)
    }
}

enum ReportKindForTest: String, CaseIterable, Sendable, Hashable {
    case json, markdown
}
