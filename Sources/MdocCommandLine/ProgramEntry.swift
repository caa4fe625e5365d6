import ArgumentParser
import MdocFiles
import MdocTerminal
import MdocText

/// How every program starts: the argument parser reads the command line and runs the command,
/// as `ParsableCommand.main()` does, except that a usage error is reported the way the
/// programs report every failure: one line, `program: error: message`, then one line saying
/// where to read more, and exit status 64 (``ExitStatus/usage``). Help, `--version` and
/// completion scripts are printed by the argument parser as usual.
package enum ProgramEntry {
    /// Parses the command line for `root`, runs the command it names (asynchronously when it is
    /// an `AsyncParsableCommand`) and exits.
    package static func main(_ root: any ParsableCommand.Type) async {
        var command: any ParsableCommand
        do {
            command = try root.parseAsRoot()
        } catch {
            exit(root, error)
        }
        do {
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            // A signal that closed the radio under the session also made it fail: the signal's
            // ending (its status, 128 + its number) is the program's, not the failure's.
            ProgramSignals.yieldToEnding()
            exit(root, error)
        }
    }

    /// The synchronous form of ``main(_:)``, for programs whose commands are all synchronous.
    package static func main(_ root: any ParsableCommand.Type) {
        var command: any ParsableCommand
        do {
            command = try root.parseAsRoot()
            try command.run()
        } catch {
            exit(root, error)
        }
    }

    /// The failure a usage error becomes: the argument parser's message on one line, and a hint
    /// naming the help of the (sub)command that was given; `nil` for anything that is not a
    /// usage error (help, `--version`, a failing command).
    ///
    /// The argument parser looks for options it does not know only after a command's
    /// `validate()` passed, so a mistyped option would be hidden behind what `validate()` says
    /// of the rest; an option in `arguments` that the command's help does not name is reported
    /// first instead.
    package static func usageFailure(_ root: any ParsableCommand.Type, _ error: any Error, arguments: [String]) -> ProgramFailure? {
        guard root.exitCode(for: error) == .validationFailure else { return nil }
        let help = helpCommand(root, error)
        if let unknown = unknownOption(in: arguments, root: root, helpCommand: help) {
            return ProgramFailure(.usage, "Unknown option '\(unknown)'", hint: "see '\(help)'")
        }
        let message = root.message(for: error)
            .split(separator: "\n").map { String($0).trimmingASCIIWhitespace() }.filter { !$0.isEmpty }
            .joined(separator: "; ")
        return ProgramFailure(.usage, TerminalText(lines: message), hint: "see '\(help)'")
    }

    /// The first long option of `arguments` (before a `--` that ends the options) that neither
    /// the program's help nor the help of the command `helpCommand` names, such as
    /// `mdoc-reader verify --help`; `nil` when every one is named somewhere, or when
    /// `helpCommand` does not name a command that takes no subcommand.
    static func unknownOption(in arguments: [String], root: any ParsableCommand.Type, helpCommand: String) -> String? {
        var command = root
        for word in helpCommand.split(separator: " ").dropFirst() where !word.hasPrefix("-") {
            guard let subcommand = command.configuration.subcommands.first(where: { $0._commandName == word }) else { return nil }
            command = subcommand
        }
        guard command.configuration.subcommands.isEmpty else { return nil }
        var known: Set<String> = ["--help", "--version", "--generate-completion-script", "--experimental-dump-help"]
        for shown in [root, command] {
            let help = root.helpMessage(for: shown, includeHidden: true, columns: Int.max / 2)
            known.formUnion(longOptions(in: help))
        }
        for argument in arguments.prefix(while: { $0 != "--" }) where argument.hasPrefix("--") {
            let name = String(argument.prefix { $0 != "=" })
            if !known.contains(name) { return name }
        }
        return nil
    }

    /// Every `--name` in `text`, with `--[no-]name` as both `--name` and `--no-name`.
    private static func longOptions(in text: String) -> Set<String> {
        let characters = Array(text)
        var names: Set<String> = []
        var index = 0
        while index + 1 < characters.count {
            guard characters[index] == "-", characters[index + 1] == "-" else {
                index += 1
                continue
            }
            var position = index + 2
            let negatable = characters[position...].starts(with: "[no-]")
            if negatable { position += "[no-]".count }
            var word = ""
            while position < characters.count, characters[position].isASCII,
                  characters[position].isLetter || characters[position].isNumber || characters[position] == "-" {
                word.append(characters[position])
                position += 1
            }
            if let first = word.first, first != "-" {
                names.insert("--" + word)
                if negatable { names.insert("--no-" + word) }
            }
            index = max(position, index + 2)
        }
        return names
    }

    /// The help command the argument parser's full message names (`mdoc-reader request
    /// --help`), or the program's own.
    static func helpCommand(_ root: any ParsableCommand.Type, _ error: any Error) -> String {
        let full = root.fullMessage(for: error, columns: Int.max / 2)
        let opening = "See '"
        let closing = "' for more information."
        for line in full.split(separator: "\n") {
            let text = String(line).trimmingASCIIWhitespace()
            if text.hasPrefix(opening), text.hasSuffix(closing) {
                return String(text.dropFirst(opening.count).dropLast(closing.count))
            }
        }
        return "\(programName(root)) --help"
    }

    private static func programName(_ root: any ParsableCommand.Type) -> String {
        root.configuration.commandName ?? "\(root)"
    }

    private static func exit(_ root: any ParsableCommand.Type, _ error: any Error) -> Never {
        guard let failure = usageFailure(root, error, arguments: Array(CommandLine.arguments.dropFirst())) else {
            root.exit(withError: error)
        }
        failure.report(program: programName(root))
    }
}
