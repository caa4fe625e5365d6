import MdocCBOR
import MdocCapture
import MdocPresentation
import MdocText

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The report of a conformance run as one self-contained HTML page: every case with its
/// outcome, clause, reason and duration, and a timeline of each session drawn from its capture
/// (docs/session-capture.md): the messages in order with who sent them, when (from the session's
/// start, to the second, as a capture keeps times), their size and status (ISO/IEC 18013-5
/// 9.1.1.4). The page loads nothing: its style and
/// script are inline, and its Content-Security-Policy allows nothing else.
///
/// The case table is HTML; the timelines are data the page's script draws once it loaded, as text
/// only (`textContent`). Text the device under test chose (a reason, a capture's problem) is
/// escaped as in ``ConformanceReport``, and entity-escaped in the table; in the data, `<` is
/// written `\u003c`, so nothing in it ends the script element.
public struct ConformanceHTMLReport: Sendable {
    /// The run.
    public var report: ConformanceReport
    /// The capture of each result that has one, by its capture path.
    public var captures: [String: SessionCapture]

    /// The page of `report`, with the timelines of `captures` (by capture path).
    public init(report: ConformanceReport, captures: [String: SessionCapture]) {
        self.report = report
        self.captures = captures
    }

    /// The page of `report`, each session's capture read from its result's capture path; a
    /// capture that cannot be read gets no timeline.
    public init(report: ConformanceReport) {
        var captures: [String: SessionCapture] = [:]
        for path in report.results.compactMap(\.capturePath) {
            captures[path] = try? SessionCapture(directory: path)
        }
        self.init(report: report, captures: captures)
    }

    /// The page.
    public var html: String {
        let (passed, failed, inconclusive) = report.counts
        let suite = ConformanceReport.xml(report.suite)
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
            <title>Conformance run: \(suite)</title>
            <style>\(Self.style)</style>
            </head>
            <body>
            <h1>Conformance run: suite <code>\(suite)</code></h1>
            <p class="counts">\(passed) passed, \(failed) failed, \(inconclusive) inconclusive</p>
            <table id="cases">
            <thead><tr><th>#</th><th>case</th><th>clause</th><th>outcome</th><th>duration</th><th>reason</th></tr></thead>
            <tbody>

            """
        for (index, result) in report.results.enumerated() {
            let outcome = result.outcome.name
            html += "<tr class=\"\(outcome)\"><td>\(index + 1)</td><td><a href=\"#session-\(index + 1)\">"
                + "\(ConformanceReport.xml(result.conformanceCase.name))</a></td>"
                + "<td>ISO/IEC 18013-5 \(ConformanceReport.xml(result.conformanceCase.clause))</td>"
                + "<td class=\"outcome\">\(outcome)</td><td>\(result.seconds) s</td>"
                + "<td>\(result.outcome.reason.map(ConformanceReport.xml) ?? "")</td></tr>\n"
        }
        let data = JSONValue.array(report.results.enumerated().map { index, result in
            timeline(of: result, number: index + 1)
        }).serialized().split(separator: "<", omittingEmptySubsequences: false).joined(separator: "\\u003c")
        html += """
            </tbody>
            </table>
            <h2>Sessions</h2>
            <div id="sessions"></div>
            <script type="application/json" id="timelines">\(data)</script>
            <script>\(Self.script)</script>
            </body>
            </html>

            """
        return html
    }

    /// The data of one case's timeline: its number, name and outcome, and its capture's
    /// messages, or none when it has no capture.
    private func timeline(of result: ConformanceResult, number: Int) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("number", .int(Int64(number))), ("name", .string(UntrustedText.escaped(result.conformanceCase.name))),
            ("outcome", .string(result.outcome.name)),
        ]
        guard let path = result.capturePath, let capture = captures[path] else {
            members.append(("messages", .null))
            return .object(members)
        }
        members.append(("ended", .string(UntrustedText.escaped(capture.outcome))))
        members.append(("messages", .array(capture.openedMessages().map { opened in
            .object([
                ("from", .string(opened.fromReader ? "reader" : "mdoc")),
                ("structure", .string(opened.structure)),
                ("seconds", .int(Int64(opened.message.time.timeIntervalSince(capture.started).rounded()))),
                ("bytes", .int(Int64(opened.message.bytes.count))),
                ("status", opened.status.map { .int(Int64($0)) } ?? .null),
                ("problem", opened.problem.map { .string(UntrustedText.escaped($0)) } ?? .null),
            ])
        })))
        return .object(members)
    }

    /// The page's style.
    private static let style = """
        body { font-family: sans-serif; margin: 2em; color: #222; }
        table { border-collapse: collapse; }
        th, td { border: 1px solid #ccc; padding: 0.3em 0.6em; text-align: left; vertical-align: top; }
        tr.passed .outcome { color: #176117; } tr.failed .outcome { color: #a31515; } tr.inconclusive .outcome { color: #8a6d00; }
        .session { margin-top: 1.5em; }
        ol.timeline { list-style: none; padding: 0; }
        ol.timeline li { display: grid; grid-template-columns: 6em 10em 12em 7em 8em 1fr; gap: 0.5em; padding: 0.2em 0; }
        li.from-mdoc { color: #1a4d8f; } li.from-reader { color: #6b2d8f; }
        .bar { height: 0.8em; background: currentColor; opacity: 0.4; align-self: center; }
        .problem { grid-column: 1 / -1; color: #a31515; font-size: 0.9em; }
        """

    /// The page's script: draws each session's timeline from the data once the page loaded, and
    /// marks the body `data-timelines="drawn"`.
    private static let script = """
        document.addEventListener("DOMContentLoaded", () => {
          const runs = JSON.parse(document.getElementById("timelines").textContent);
          const root = document.getElementById("sessions");
          const add = (parent, tag, className, text) => {
            const element = document.createElement(tag);
            if (className) element.className = className;
            if (text !== undefined) element.textContent = text;
            parent.append(element);
            return element;
          };
          for (const run of runs) {
            const section = add(root, "section", "session " + run.outcome);
            section.id = "session-" + run.number;
            add(section, "h3", "", run.number + ". " + run.name + " (" + run.outcome + ")");
            if (run.messages === null) {
              add(section, "p", "no-capture", "No capture of this session (give --captures).");
              continue;
            }
            add(section, "p", "ended", "Ended: " + run.ended);
            const list = add(section, "ol", "timeline");
            const largest = Math.max(1, ...run.messages.map(message => message.bytes));
            for (const message of run.messages) {
              const item = add(list, "li", "message from-" + message.from);
              add(item, "span", "time", "+" + message.seconds + " s");
              add(item, "span", "direction", message.from === "reader" ? "reader \\u2192 mdoc" : "mdoc \\u2192 reader");
              add(item, "span", "structure", message.structure);
              add(item, "span", "size", message.bytes + " bytes");
              add(item, "span", "status", message.status === null ? "" : "status " + message.status);
              const bar = add(item, "span", "bar");
              bar.style.width = Math.max(2, Math.round(100 * message.bytes / largest)) + "%";
              if (message.problem !== null) add(item, "span", "problem", message.problem);
            }
          }
          document.body.dataset.timelines = "drawn";
        });
        """
}
