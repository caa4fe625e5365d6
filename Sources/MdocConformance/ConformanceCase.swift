/// One conformance test of an mdoc under test: a session scripted to show one thing, and the one
/// behaviour ISO/IEC 18013-5 requires of the mdoc in it.
///
/// Names follow the public naming of the ISO/IEC TS 18013-6 test cases, `mDL_` for an mdoc under
/// test; a case 18013-6 does not name publicly has a descriptive name of the same style
/// (docs/conformance.md says which). Each case cites the 18013-5 clause its expectation comes
/// from.
public struct ConformanceCase: ConformanceTest {
    /// The case's name, unique in its suite.
    public var name: String
    /// The ISO/IEC 18013-5 clause the expected behaviour comes from, such as "9.1.1.4".
    public var clause: String
    /// What the case does and what it expects, in a sentence or two.
    public var summary: String
    /// Whether a person at the device under test must act (approve a disclosure) for the case to
    /// pass; cases that expect no disclosure need nobody.
    public var needsPerson: Bool
    /// The session the reader runs.
    public var session: ScriptedSession
    /// The one behaviour the mdoc must show.
    public var expectation: HolderExpectation

    /// A case.
    public init(
        name: String, clause: String, summary: String, needsPerson: Bool, session: ScriptedSession, expectation: HolderExpectation
    ) {
        self.name = name
        self.clause = clause
        self.summary = summary
        self.needsPerson = needsPerson
        self.session = session
        self.expectation = expectation
    }
}
