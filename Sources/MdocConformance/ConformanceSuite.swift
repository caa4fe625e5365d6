/// A named list of ``ConformanceCase``s for one kind of device under test, run one session per
/// case by ``ConformanceRunner``.
public struct ConformanceSuite: Sendable {
    /// The suite's name, as `--suite` takes it.
    public var name: String
    /// What the suite tests, in a sentence.
    public var summary: String
    /// The cases, in the order they run.
    public var cases: [ConformanceCase]

    /// A suite.
    public init(name: String, summary: String, cases: [ConformanceCase]) {
        self.name = name
        self.summary = summary
        self.cases = cases
    }

    /// The suites for an mdoc (holder) under test.
    public static let holderSuites: [ConformanceSuite] = [.holder]

    /// The cases of this suite named in `names`, in the suite's order; throws naming the first
    /// name the suite does not have.
    public func cases(named names: [String]) throws(ConformanceError) -> [ConformanceCase] {
        if let unknown = names.first(where: { name in !cases.contains { $0.name == name } }) {
            throw ConformanceError(.unknownCase, "the suite \(name) has no case \(unknown)")
        }
        return cases.filter { names.contains($0.name) }
    }
}
