import MdocCBOR
import MdocText

/// The reports of a conformance run: JSON members (docs/json-report.md, `conformanceRun`) and
/// JUnit XML, one test case per ``ConformanceCase``. Text the device under test chose (in a
/// failure's reason) is escaped in both, and a reason cut after `UntrustedText.maximumLength`
/// characters.
public struct ConformanceReport: Sendable {
    /// The suite that ran.
    public var suite: String
    /// The results, in the order the cases ran.
    public var results: [ConformanceResult]

    /// The report of `results` of `suite`.
    public init(suite: String, results: [ConformanceResult]) {
        self.suite = suite
        self.results = results
    }

    /// How many cases had each outcome.
    public var counts: (passed: Int, failed: Int, inconclusive: Int) {
        results.reduce(into: (0, 0, 0)) { counts, result in
            switch result.outcome {
            case .passed: counts.0 += 1
            case .failed: counts.1 += 1
            case .inconclusive: counts.2 += 1
            }
        }
    }

    /// `suite`, the counts, and per case its name, clause, outcome, reason, duration and
    /// capture path.
    public var jsonMembers: [(String, JSONValue)] {
        let (passed, failed, inconclusive) = counts
        return [
            ("suite", .string(suite)),
            ("passed", .int(Int64(passed))), ("failed", .int(Int64(failed))), ("inconclusive", .int(Int64(inconclusive))),
            ("cases", .array(results.map { result in
                .object([
                    ("name", .string(result.conformanceCase.name)),
                    ("clause", .string(result.conformanceCase.clause)),
                    ("outcome", .string(result.outcome.name)),
                    ("reason", result.outcome.reason.map { .string(UntrustedText.escaped($0)) } ?? .null),
                    ("durationSeconds", .double(result.seconds)),
                    ("capture", result.capturePath.map { .string($0) } ?? .null),
                ])
            })),
        ]
    }

    /// The JUnit XML of the run: one `testsuite` named after the suite, one `testcase` per case
    /// (classname the clause), a `failure` for a failed case and `skipped` for an inconclusive
    /// one, with the reason as its message.
    public var junitXML: String {
        let (_, failed, inconclusive) = counts
        let total = ConformanceResult.seconds(results.reduce(Duration.zero) { $0 + $1.duration })
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuite name=\"\(Self.xml(suite))\" tests=\"\(results.count)\" failures=\"\(failed)\" errors=\"0\" skipped=\"\(inconclusive)\" time=\"\(total)\">\n"
        for result in results {
            let name = Self.xml(result.conformanceCase.name)
            let clause = Self.xml("ISO/IEC 18013-5 \(result.conformanceCase.clause)")
            xml += "  <testcase name=\"\(name)\" classname=\"\(clause)\" time=\"\(result.seconds)\""
            switch result.outcome {
            case .passed:
                xml += "/>\n"
            case .failed(let reason):
                xml += ">\n    <failure message=\"\(Self.xml(reason))\"/>\n  </testcase>\n"
            case .inconclusive(let reason):
                xml += ">\n    <skipped message=\"\(Self.xml(reason))\"/>\n  </testcase>\n"
            }
        }
        xml += "</testsuite>\n"
        return xml
    }

    /// `text` escaped for an XML or HTML attribute or text: control characters and other unsafe
    /// characters as `UntrustedText` writes them, then the five XML specials as entities.
    static func xml(_ text: String) -> String {
        var out = ""
        for character in UntrustedText.escaped(text) {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(character)
            }
        }
        return out
    }
}
