import MdocText
import Synchronization

/// How much a program says on standard error besides its result, its failures, its warnings and
/// its notes: `-q`/`--quiet` leaves out the progress lines (what it is doing: connecting,
/// waiting, the request sent, which roots it trusts), `-v`/`--verbose` adds the debug records of
/// its layers (`VerbosityOptions`, MdocCommandLine, sets it once, before the program says
/// anything).
package enum Verbosity: UInt8, Sendable {
    /// Progress lines left out.
    case quiet
    /// Progress lines, and log records from `--log-level` (warning by default) up.
    case normal
    /// Progress lines, and log records from debug up.
    case verbose

    private static let stored = Atomic<UInt8>(Verbosity.normal.rawValue)

    /// The program's verbosity: ``normal`` until `-q` or `-v` sets it.
    package static var current: Verbosity {
        get { Verbosity(rawValue: stored.load(ordering: .relaxed)) ?? .normal }
        set { stored.store(newValue.rawValue, ordering: .relaxed) }
    }
}

extension ProgramOutput {
    /// Writes `text` and a line feed unless the program is ``Verbosity/quiet``: a progress line,
    /// which says what the program is doing and nothing the user must act on.
    package func writeProgressLine(_ text: TerminalText) {
        guard Verbosity.current != .quiet else { return }
        writeLine(text)
    }
}
