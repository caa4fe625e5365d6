import ArgumentParser
import Logging
import MdocTerminal

/// `-q`/`--quiet` and `-v`/`--verbose` of the commands that run a live session and say how it
/// is getting on (`mdoc demo`, and through ``LiveTransportOptions`` `mdoc-holder present`,
/// `mdoc-reader request` and `scan`): ``Verbosity`` for the process. Quiet leaves the result,
/// failures, warnings and notes; verbose adds the debug log records of the BLE layers and the
/// session. The other commands write their result, notes and failures only, and have neither.
package struct VerbosityOptions: ParsableArguments {
    @Flag(name: [.customShort("q"), .long],
          help: "Leave out the progress lines on standard error (connecting, waiting, the roots trusted); the result, errors, warnings and notes stay.")
    package var quiet = false

    @Flag(name: [.customShort("v"), .long],
          help: "Add the debug log records on standard error (ATT MTU, chunk sizes, State changes), as --log-level debug where there is one.")
    package var verbose = false

    /// Neither flag: ``Verbosity/normal``.
    package init() {}

    /// Refuses both flags at once.
    package func validate() throws {
        if quiet, verbose {
            throw ValidationError("--quiet and --verbose exclude each other")
        }
    }

    /// The verbosity the flags ask for.
    package var verbosity: Verbosity {
        quiet ? .quiet : verbose ? .verbose : .normal
    }

    /// Sets ``Verbosity/current``; call once, before the program writes anything.
    package func apply() {
        Verbosity.current = verbosity
    }

    /// The least severe log record written, given `--log-level`'s `level`: debug or below when
    /// verbose, `level` otherwise.
    package func logLevel(given level: Logger.Level) -> Logger.Level {
        verbose ? min(level, .debug) : level
    }

    /// The flags to hand to a child program (`mdoc demo`'s holder and reader) so that it says as
    /// much as this one.
    package var arguments: [String] {
        quiet ? ["--quiet"] : verbose ? ["--verbose"] : []
    }
}
