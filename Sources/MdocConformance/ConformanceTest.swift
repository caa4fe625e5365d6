/// What every conformance test case has, whichever side is under test: a ``ConformanceCase``
/// for an mdoc, a ``ReaderConformanceCase`` for an mdoc reader. Results and reports
/// (``ConformanceResult``, ``ConformanceReport``) take either.
public protocol ConformanceTest: Sendable {
    /// The case's name, unique in its suite.
    var name: String { get }
    /// The ISO/IEC 18013-5 clause the expected behaviour comes from, such as "9.1.1.4".
    var clause: String { get }
    /// What the case does and what it expects, in a sentence or two.
    var summary: String { get }
    /// Whether a person must act for the case to be judged: approve a disclosure at an mdoc
    /// under test, or say what a reader under test showed.
    var needsPerson: Bool { get }
}
