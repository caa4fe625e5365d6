/// Entries of a ``ReportList`` built on reading from what the verifier holds anyway: a check or
/// an element per IssuerSignedItem of a name space.
protocol ReportRun<Element>: Sendable {
    associatedtype Element: Sendable

    /// The number of entries.
    var count: Int { get }

    /// The entry at `offset`, from 0 to `count - 1`.
    subscript(offset: Int) -> Element { get }
}
