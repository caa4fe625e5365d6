import Foundation
import MdocTestSupport
import Testing

/// The README's "What `bash scripts/demo.sh` shows" is what `mdoc demo` prints now, run in a fresh
/// clone's copy of the demo material: the holder's
/// lines in their order, the reader's in theirs, the request as the holder shows it in its order,
/// and the rest (the report) in theirs, with what differs from run to run (the engagement, its
/// service UUID, the verification time, the QR code) set aside. Two processes write to one
/// terminal, so the order across them is the scheduler's: the holder's request, which `mdoc demo`
/// passes through from the holder's standard output, can come after the reader's report on a
/// busy machine.
@Suite struct DemoTranscriptTests {
    /// The first line of the request as the holder shows it; its lines after this are indented.
    static let requestHeading = "The reader requests:"

    /// The lines of `text` in four sequences: the holder's, the reader's, the holder's request
    /// (``requestHeading`` and the indented or empty lines after it) and the others, QR code,
    /// `mdoc:` URI and empty lines left out, run-to-run values replaced.
    static func streams(_ text: String) -> (holder: [String], reader: [String], request: [String], others: [String]) {
        var streams: (holder: [String], reader: [String], request: [String], others: [String]) = ([], [], [], [])
        var inRequest = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            guard !line.contains(where: { "█▀▄".contains($0) }), !line.hasPrefix("mdoc:") else { continue }
            let normalized = line
                .replacingOccurrences(of: #"[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}"#, with: "UUID", options: .regularExpression)
                .replacingOccurrences(of: #"(Verified at |checked at )[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z"#, with: "$1TIME", options: .regularExpression)
            if normalized.hasPrefix("mdoc-holder: ") {
                streams.holder.append(normalized)
            } else if normalized.hasPrefix("mdoc-reader: ") {
                streams.reader.append(normalized)
            } else {
                inRequest = normalized == requestHeading || (inRequest && (normalized.isEmpty || normalized.hasPrefix(" ")))
                if normalized.isEmpty { continue }
                if inRequest {
                    streams.request.append(normalized)
                } else {
                    streams.others.append(normalized)
                }
            }
        }
        return streams
    }

    @Test("the README's demo transcript is what mdoc demo prints")
    func readmeTranscript() async throws {
        let readme = try String(contentsOfFile: Vectors.repositoryRoot + "/README.md", encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "### What `bash scripts/demo.sh` shows").dropFirst().first)
        let block = try #require(section.components(separatedBy: "```text\n").dropFirst().first?.components(separatedBy: "```").first)
        let shown = Self.streams(block.replacingOccurrences(of: "$ bash scripts/demo.sh\n", with: ""))

        // As a fresh clone has the demo material: git checks Certs/demo/mdl.mdoc out 0644, and
        // the holder says so.
        let checkout = try DemoMaterialTests.freshCheckout()
        defer { try? FileManager.default.removeItem(atPath: checkout) }
        let run = try IsolatedRun()
        defer { run.remove() }
        let demo = try await run.run("mdoc", ["demo"], directory: checkout)
        #expect(demo.status == 0, "\(demo.standardError)")
        let printed = Self.streams(demo.standardError + "\n" + demo.standardOutput)

        #expect(shown.holder == printed.holder)
        #expect(shown.reader == printed.reader)
        #expect(shown.request == printed.request)
        #expect(shown.others == printed.others)
        #expect(!shown.others.isEmpty && !shown.reader.isEmpty && !shown.holder.isEmpty && shown.request.count > 1)
    }
}
