import MdocConsent
import MdocFiles
import MdocModel
import MdocPosix
import MdocTerminal
import MdocText

#if canImport(Glibc)
import Glibc
#endif

/// The engagements `test-holder` reads, one for each case: lines of a file or of standard input,
/// each line holding an `mdoc:` URI (ISO/IEC 18013-5 8.2.2.3) giving the next one. A line
/// without one (the QR code, a JSON line of another kind) is skipped; a line whose URI does not
/// decode is reported on standard error, escaped, and skipped.
struct EngagementLines: Sendable {
    private let lines: InputLines

    /// The lines of the file at `path`, or of standard input when `nil` or `-`.
    init(path: String?) throws(ProgramFailure) {
        guard let path, path != "-" else {
            lines = InputLines.standardInput
            return
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ProgramFailure(.badTrustInput, "--engagements \(path): \(String(cString: strerror(errno)))")
        }
        lines = InputLines(fileDescriptor: descriptor)
    }

    /// The next engagement within `bound`; `nil` at the end of the input, when the input fails,
    /// or when none came in time.
    func next(within bound: Duration) async -> MdocURI? {
        let cancellation = InputLines.Cancellation()
        let timer = Task {
            try? await Task.sleep(for: bound)
            cancellation.cancel()
        }
        defer { timer.cancel() }
        let lines = self.lines
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<MdocURI?, Never>) in
                do throws(SystemCall.Errno) {
                    try DetachedThread.start {
                        continuation.resume(returning: Self.firstEngagement(in: lines, until: cancellation))
                    }
                } catch {
                    continuation.resume(returning: nil)
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
    }

    /// The URI of the first line of `lines` that holds a decodable one.
    private static func firstEngagement(in lines: InputLines, until cancellation: InputLines.Cancellation) -> MdocURI? {
        while let line = lines.readLine(until: cancellation) {
            guard let text = uriText(in: line) else { continue }
            do {
                return try MdocURI(text)
            } catch {
                ProgramOutput.standardError.writeLine("mdoc-reader: skipping an engagement that does not decode: \(error)")
            }
        }
        return nil
    }

    /// The `mdoc:` URI in `line`: the scheme and the base64url characters after it.
    static func uriText(in line: String) -> String? {
        let scalars = Array(line.unicodeScalars)
        let scheme = Array(MdocURI.scheme.unicodeScalars)
        guard let start = scalars.indices.first(where: { scalars[$0...].starts(with: scheme) }) else { return nil }
        let body = scalars[(start + scheme.count)...].prefix(while: isBase64URL)
        return MdocURI.scheme + String(String.UnicodeScalarView(body))
    }

    /// Whether `scalar` is of the base64url alphabet (RFC 4648 section 5), padding included.
    private static func isBase64URL(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "A"..."Z", "a"..."z", "0"..."9", "-", "_", "=": true
        default: false
        }
    }
}
