import ArgumentParser
import MdocFiles
import MdocText

#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `--pin-file`: the user PIN (PKCS#11 3.0 section 5.6 C_Login) of the token that holds a
/// credential's device key, read from a file or from `MDOC_TOKEN_PIN`, never from the command
/// line, where other users see it in the process list. It is handed to the token only and never
/// printed.
struct TokenPINOptions: ParsableArguments {
    /// The environment variable read when no `--pin-file` is given.
    static let environmentVariable = "MDOC_TOKEN_PIN"

    @Option(name: .customLong("pin-file"),
            help: "A file whose first line is the PIN of the token holding the device key (else $MDOC_TOKEN_PIN).",
            completion: .file())
    var pinFile: String?

    /// The PIN: the first line of `--pin-file`, else `MDOC_TOKEN_PIN`, else `nil` (a token that
    /// needs one then refuses the login).
    func pin() throws(ProgramFailure) -> [UInt8]? {
        guard let pinFile else {
            return ProcessInfo.processInfo.environment[Self.environmentVariable].map { Array($0.utf8) }
        }
        // Read as it is: no format detection, which would take a PIN of hex digits for bytes.
        let fd = open(pinFile, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw ProgramFailure(.badTrustInput, "--pin-file \(pinFile): cannot open it: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        let bytes: [UInt8]
        do {
            bytes = try InputSource.readAll(fd: fd, name: pinFile)
        } catch {
            throw ProgramFailure(.badTrustInput, "--pin-file \(error)")
        }
        return Array(bytes.prefix { $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") })
    }
}
