import Foundation
import MdocTestSupport
import Testing

/// The programs write to the terminal only through ``ProgramOutput`` (or the two sinks that take
/// ``TerminalText`` only, the consent prompt and the progress reporter), so no new printer of peer
/// text can skip the escaping: this reads their sources and fails on any other way to standard
/// output or error.
@Suite struct ProgramOutputSourceTests {
    /// The folders whose code prints what peers send.
    static let folders = [
        "Sources/mdoc", "Sources/mdoc-holder", "Sources/mdoc-reader", "Sources/mdoc-issuer", "Sources/MdocTerminal",
        "Sources/MdocCommandLine", "Sources/MdocText", "Sources/MdocFiles", "Sources/MdocInspection", "Sources/MdocCapture",
        "Sources/MdocQR", "Sources/MdocStores", "Sources/MdocConsent", "Sources/MdocIssuerData",
    ]
    /// The files allowed to write to a descriptor themselves: the writer, and the consent prompt
    /// and progress reporter, whose sinks receive only text they built as ``TerminalText``.
    static let writers: Set<String> = [
        "Sources/MdocTerminal/ProgramOutput.swift", "Sources/MdocTerminal/Progress/FileDescriptorWriter.swift",
        "Sources/MdocConsent/ConsentPrompt.swift", "Sources/MdocTerminal/Progress/ProgressReporter.swift",
    ]
    /// Ways to standard output or error other than ``ProgramOutput``.
    static let forbidden = [
        "print(", "debugPrint(", "dump(", "FileHandle.standard", "fputs(", "fwrite(", "puts(", "putchar(", "printf(",
        "STDOUT_FILENO", "STDERR_FILENO", "FileDescriptorWriter.", "StreamLogHandler",
    ]

    @Test func programsWriteOnlyThroughProgramOutput() throws {
        let root = Vectors.repositoryRoot
        var files: [String] = []
        for folder in Self.folders {
            let enumerator = try #require(FileManager.default.enumerator(atPath: root + "/" + folder))
            while let name = enumerator.nextObject() as? String {
                if name.hasSuffix(".swift") { files.append(folder + "/" + name) }
            }
        }
        #expect(files.count > 40, "\(files)")
        var offences: [String] = []
        for file in files where !Self.writers.contains(file) {
            let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.hasPrefix("//") else { continue }
                for call in Self.forbidden where code.contains(call) {
                    offences.append("\(file):\(number + 1): \(call) in \(code)")
                }
            }
        }
        #expect(offences.isEmpty, "\(offences.joined(separator: "\n"))")
    }
}
