import Testing

@testable import ContractVerifier

/// `--color`: colours and the progress line only where they can be shown and are wanted.
struct ConsoleStyleTests {
    func style(_ choice: ColorChoice, _ environment: [String: String] = [:], terminal: Bool = true) -> ConsoleReporter.Style {
        ConsoleReporter.Style(choosing: choice, environment: environment, outputIsTerminal: terminal)
    }

    @Test func autoFollowsTheTerminal() {
        #expect(style(.auto, ["TERM": "xterm-256color"]) == .terminal)
        #expect(style(.auto, ["TERM": "xterm-256color"], terminal: false) == .plain)
    }

    @Test func noColorWithAnyValueTurnsAutoOff() {
        #expect(style(.auto, ["NO_COLOR": "1"]) == .plain)
        #expect(style(.auto, ["NO_COLOR": "false"]) == .plain, "any value, even one that reads as no")
        #expect(style(.auto, ["NO_COLOR": ""]) == .terminal, "an empty value is no value (no-color.org)")
    }

    @Test func aDumbTerminalGetsPlainText() {
        #expect(style(.auto, ["TERM": "dumb"]) == .plain)
    }

    @Test func alwaysAndNeverAreObeyed() {
        #expect(style(.always, ["NO_COLOR": "1", "TERM": "dumb"], terminal: false) == .terminal)
        #expect(style(.never, ["TERM": "xterm"]) == .plain)
    }
}
