import ArgumentParser
import ContractModel

/// A misspelt command. The argument parser would read `contract verfy --base-url …` as options
/// of `contract` itself and answer "Unknown option '--base-url'", which hides the typo.
enum UnknownCommand {
    /// `unknown command 'verfy'; did you mean 'verify'?`, or nil when the words name a command
    /// (or are options, which the parser judges).
    static func message(for arguments: [String]) -> String? {
        var subcommands: [ParsableCommand.Type] = ContractCommand.configuration.subcommands
        var path: [String] = []
        for word in arguments {
            guard !subcommands.isEmpty, !word.hasPrefix("-"), word != "help" else { return nil }
            var names: [String] = []
            for command in subcommands { names.append(command.configuration.commandName ?? "") }
            if let index = names.firstIndex(of: word) {
                subcommands = subcommands[index].configuration.subcommands
                path.append(word)
                continue
            }
            let unknown = (path + [word]).joined(separator: " ")
            guard let suggestion = CommandNames.closest(to: word, among: names + ["help"]) else { return "unknown command '\(unknown)'" }
            return "unknown command '\(unknown)'; did you mean '\((path + [suggestion]).joined(separator: " "))'?"
        }
        return nil
    }
}
