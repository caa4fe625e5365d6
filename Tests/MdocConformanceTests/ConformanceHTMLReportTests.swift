import Foundation
import MdocConformance
import Testing

/// The HTML report of a conformance run (`--report-html`): what the device under test chose is
/// escaped in the table, and nothing in the timelines' data ends its script element.
@Suite struct ConformanceHTMLReportTests {
    @Test func aReasonQuotingMarkupIsEscapedAndACaseWithoutCaptureHasNoTimeline() throws {
        let conformanceCase = try #require(ReaderConformanceSuite.reader.cases.first)
        let reason = "expected status 20, but the reader sent </script><script>alert(1)</script> \u{1B}[2J & 'more'"
        let report = ConformanceReport(suite: "reader", results: [
            ConformanceResult(conformanceCase: conformanceCase, outcome: .failed(reason), duration: .milliseconds(1500), capturePath: nil),
        ])
        let html = ConformanceHTMLReport(report: report).html
        #expect(!html.contains("<script>alert"), "\(html)")
        #expect(html.contains("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; \\u{1B}[2J &amp; &apos;more&apos;"), "\(html)")
        #expect(html.contains(##"<tr class="failed"><td>1</td><td><a href="#session-1">mDLR_Response_WellFormed</a></td>"##), "\(html)")
        #expect(html.contains("<td>1.5 s</td>"), "\(html)")
        #expect(html.contains(#""messages":null"#), "\(html)")
        #expect(html.contains("0 passed, 1 failed, 0 inconclusive"))
        // One script element of data and one of code, and no other way to load anything.
        #expect(html.components(separatedBy: "</script>").count - 1 == 2, "\(html)")
        #expect(html.contains("default-src 'none'"))
    }

    @Test func aCaseNameWithMarkupIsWrittenAsDataNotMarkup() throws {
        var conformanceCase = try #require(ReaderConformanceSuite.reader.cases.first)
        conformanceCase.name = "</script><b>x"
        let report = ConformanceReport(suite: "reader", results: [
            ConformanceResult(conformanceCase: conformanceCase, outcome: .passed, duration: .zero, capturePath: nil),
        ])
        let html = ConformanceHTMLReport(report: report).html
        #expect(html.contains(#""name":"\u003c/script>\u003cb>x""#), "\(html)")
        #expect(html.contains(">&lt;/script&gt;&lt;b&gt;x</a>"), "\(html)")
        #expect(html.components(separatedBy: "</script>").count - 1 == 2, "\(html)")
    }
}
