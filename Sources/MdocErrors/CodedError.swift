/// An error of swift-mdoc: a ``code`` to match on and what happened for people, in its
/// `description`. ``MdocError`` is the one type of this shape, one for each domain.
///
/// Two errors are equal when their codes are, whatever their reasons, so a test or a caller
/// matches on the kind of failure: `#expect(throws: BLEError(.timeout, ""))`.
public protocol CodedError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The type of ``code``: `ErrorKind<Self>` for ``MdocError``.
    associatedtype Code: Sendable & Hashable

    /// What kind of failure this is.
    var code: Code { get }
}

extension CodedError {
    /// Whether the two errors have the same code.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.code == rhs.code
    }

    /// Hashes the code alone, as ``==(_:_:)`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
    }
}
