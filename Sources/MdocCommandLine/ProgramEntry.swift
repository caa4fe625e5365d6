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
    package static func usageFailure(_ root: any ParsableCommand.Type, _ error: any Error) -> ProgramFailure? {
        guard root.exitCode(for: error) == .validationFailure else { return nil }
        let message = root.message(for: error)
            .split(separator: "\n").map { String($0).trimmingASCIIWhitespace() }.filter { !$0.isEmpty }
            .joined(separator: "; ")
        return ProgramFailure(.usage, TerminalText(lines: message), hint: "see '\(helpCommand(root, error))'")
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
        guard let failure = usageFailure(root, error) else {
            root.exit(withError: error)
        }
        failure.report(program: programName(root))
    }
}
