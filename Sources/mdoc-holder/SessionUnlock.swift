import MdocConsent
import MdocTerminal
import MdocText

#if canImport(Glibc)
import Glibc
#endif

/// `mdoc-holder present --unlock-each-session`: user presence. Before each session the person
/// at the holder gives the secret that unlocks the device keys (the PIN of the token or of the
/// TPM key, or the passphrase of a sealed key), and the keys are loaded with it for that session
/// only. When the session ends they are released (the token's or TPM's provider unloaded, which
/// logs out of the token; an unsealed key's bytes freed), so the next session asks again, and a
/// wrong PIN counts against the token's or the TPM's own retry limit.
enum SessionUnlock {
    /// The question asked before each session.
    static let prompt = "PIN or passphrase of the device key, for the next session: "

    /// Asks on standard error and reads one line of standard input, as the consent prompt does
    /// (``InputLines/standardInput``), with the terminal's echo off while it is typed when
    /// standard input is a terminal; `nil` at the end of input.
    static func ask() -> [UInt8]? {
        ProgramOutput.standardError.write(TerminalText(lines: "mdoc-holder: " + prompt))
        var saved = termios()
        var echoOff = false
        if isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &saved) == 0 {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            echoOff = tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet) == 0
        }
        let line = InputLines.standardInput.readLine(until: InputLines.Cancellation())
        if echoOff {
            _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
        }
        // The answer's line end was not echoed, or came from a pipe: the next line starts here.
        ProgramOutput.standardError.write("\n")
        return line.map { Array($0.utf8) }
    }
}
