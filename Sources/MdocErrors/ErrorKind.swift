/// The kind of a ``CodedError`` of the error type `Domain`: a name to match on, with a value for
/// each kind the error type defines in an extension `where Domain == ThatError`. New codes may be
/// added without breaking callers; codes are made only inside swift-mdoc.
public struct ErrorKind<Domain>: Sendable, Hashable, CustomStringConvertible {
    private let name: String

    /// The code called `name`; each error type defines its own.
    package init(_ name: String) {
        self.name = name
    }

    /// The code's name.
    public var description: String { name }
}
