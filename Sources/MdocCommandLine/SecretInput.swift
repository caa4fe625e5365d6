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

/// A secret a program is given, a token's PIN (``TokenPINOptions``) or a device key's
/// passphrase (`mdoc-holder`'s `KeyPassphraseOptions`): the first line of a file named by an option, else an
/// environment variable, never the command line, where other users see it in the process list.
/// It is never printed.
package enum SecretInput {
    /// The first line of the file `file` (`option` names it in messages), else the value of the
    /// environment variable `variable`, else `nil`.
    package static func read(file: String?, option: String, variable: String) throws(ProgramFailure) -> [UInt8]? {
        guard let file else {
            return ProcessInfo.processInfo.environment[variable].map { Array($0.utf8) }
        }
        // Read as it is: no format detection, which would take a secret of hex digits for bytes.
        let fd = open(file, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw ProgramFailure(.badTrustInput, "\(option) \(file): cannot open it: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        let bytes: [UInt8]
        do {
            bytes = try InputSource.readAll(fd: fd, name: file)
        } catch {
            throw ProgramFailure(.badTrustInput, "\(option) \(error)")
        }
        return Array(bytes.prefix { $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") })
    }
}
