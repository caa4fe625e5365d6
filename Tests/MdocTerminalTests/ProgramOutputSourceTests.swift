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

    /// Whether `code` names `call` as a name of its own, not as the end of a longer one
    /// (`thumbprint(` is no `print(`).
    static func calls(_ call: String, in code: String) -> Bool {
        var rest = code[...]
        while let found = rest.range(of: call) {
            let before = found.lowerBound == code.startIndex ? nil : code[code.index(before: found.lowerBound)]
            if !(before.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false) { return true }
            rest = code[found.upperBound...]
        }
        return false
    }

    @Test("a longer name ending in a forbidden one is not taken for it")
    func longerNamesAreNotCalls() {
        #expect(Self.calls("print(", in: "print(x)"))
        #expect(Self.calls("print(", in: "let a = 1; print(a)"))
        #expect(Self.calls("print(", in: "thumbprint(a); print(b)"))
        #expect(!Self.calls("print(", in: "jwkThumbprint: try thumbprint(kind, parameters),"))
        #expect(!Self.calls("puts(", in: "inputs(a)"))
    }

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
                for call in Self.forbidden where Self.calls(call, in: code) {
                    offences.append("\(file):\(number + 1): \(call) in \(code)")
                }
            }
        }
        #expect(offences.isEmpty, "\(offences.joined(separator: "\n"))")
    }
}
