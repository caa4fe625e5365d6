/// A named list of ``ReaderConformanceCase``s for an mdoc reader under test, run one session per
/// case by ``ReaderConformanceRunner``.
public struct ReaderConformanceSuite: Sendable {
    /// The suite's name, as `--suite` takes it.
    public var name: String
    /// What the suite tests, in a sentence.
    public var summary: String
    /// The cases, in the order they run.
    public var cases: [ReaderConformanceCase]

    /// A suite.
    public init(name: String, summary: String, cases: [ReaderConformanceCase]) {
        self.name = name
        self.summary = summary
        self.cases = cases
    }

    /// The suites for an mdoc reader under test.
    public static let readerSuites: [ReaderConformanceSuite] = [.reader]

    /// The cases of this suite named in `names`, in the suite's order; throws naming the first
    /// name the suite does not have.
    public func cases(named names: [String]) throws(ConformanceError) -> [ReaderConformanceCase] {
        if let unknown = names.first(where: { name in !cases.contains { $0.name == name } }) {
            throw ConformanceError(.unknownCase, "the suite \(name) has no case \(unknown)")
        }
        return cases.filter { names.contains($0.name) }
    }
}
