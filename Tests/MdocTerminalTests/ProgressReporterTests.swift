import MdocTerminal
import MdocText
import NIOConcurrencyHelpers
import Testing

/// Collects what a reporter writes.
final class WrittenText: Sendable {
    private let text = NIOLockedValueBox("")
    var value: String { text.withLockedValue { $0 } }
    func append(_ more: String) { text.withLockedValue { $0 += more } }
}

@Suite struct ProgressReporterTests {
    private func run(useANSI: Bool) -> String {
        let written = WrittenText()
        var reporter = ProgressReporter(label: "mdoc-reader", useANSI: useANSI) { written.append($0) }
        reporter.report(.connecting("sim service 45efef74-2b2c-4837-a9a3-b0e1d05a6917"))
        reporter.report(.connected(mtu: 515))
        reporter.report(.requestSent(bytes: 421))
        reporter.report(.receiving(bytes: 512))
        reporter.report(.receiving(bytes: 1024))
        reporter.report(.received(bytes: 1500))
        reporter.report(.verifying)
        reporter.finish()
        return written.value
    }

    @Test func plainLinesWithoutEscapesWhenNotATerminal() {
        #expect(run(useANSI: false) == """
            mdoc-reader: connecting to sim service 45efef74-2b2c-4837-a9a3-b0e1d05a6917
            mdoc-reader: connected (ATT MTU 515)
            mdoc-reader: request sent (421 bytes)
            mdoc-reader: receiving response (512 bytes so far)
            mdoc-reader: response received (1500 bytes)
            mdoc-reader: verifying

            """)
    }

    @Test func receivingUpdatesInPlaceOnATerminal() {
        let text = run(useANSI: true)
        #expect(text.contains("mdoc-reader: request sent (421 bytes)\n\r\u{1B}[2Kmdoc-reader: receiving response (512 bytes so far)\r\u{1B}[2Kmdoc-reader: receiving response (1024 bytes so far)\r\u{1B}[2Kmdoc-reader: response received (1500 bytes)\n"))
        #expect(text.hasSuffix("mdoc-reader: verifying\n"))
    }

    @Test func finishClosesAnOpenReceivingLine() {
        let written = WrittenText()
        var reporter = ProgressReporter(label: "r", useANSI: true) { written.append($0) }
        reporter.report(.receiving(bytes: 10))
        reporter.finish()
        #expect(written.value == "\r\u{1B}[2Kr: receiving response (10 bytes so far)\n")
        reporter.finish()
        #expect(written.value.hasSuffix("so far)\n"))
        #expect(written.value.filter { $0 == "\n" }.count == 1)
    }
}
