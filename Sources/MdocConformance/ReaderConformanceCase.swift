/// One conformance test of an mdoc reader under test: a session our holder runs with it,
/// scripted to show one thing, and the one behaviour ISO/IEC 18013-5 requires of the reader in
/// it.
///
/// Names follow the style of the public naming of the ISO/IEC TS 18013-6 test cases, with
/// `mDLR_` for a reader under test; none is taken from 18013-6's own list (docs/conformance.md).
/// Each case cites the 18013-5 clause its expectation comes from.
public struct ReaderConformanceCase: ConformanceTest {
    /// The case's name, unique in its suite.
    public var name: String
    /// The ISO/IEC 18013-5 clause the expected behaviour comes from, such as "9.1.1.4".
    public var clause: String
    /// What the case does and what it expects, in a sentence or two.
    public var summary: String
    /// The session the holder runs.
    public var session: ScriptedHolderSession
    /// The one behaviour the reader must show.
    public var expectation: ReaderExpectation

    /// A case.
    public init(name: String, clause: String, summary: String, session: ScriptedHolderSession, expectation: ReaderExpectation) {
        self.name = name
        self.clause = clause
        self.summary = summary
        self.session = session
        self.expectation = expectation
    }

    /// Whether a person must say what the reader showed: the holder cannot see it.
    public var needsPerson: Bool {
        expectation.question != nil
    }
}
