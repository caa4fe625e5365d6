import MdocErrors

/// A failure of the conformance runner itself, not of the device under test: a case or suite
/// that does not exist, a report that cannot be written.
public typealias ConformanceError = MdocError<ConformanceErrorDomain>

/// The domain of ``ConformanceError``.
public enum ConformanceErrorDomain: ErrorDomain {}

extension ErrorKind where Domain == ConformanceError {
    /// A case name the suite does not have.
    public static let unknownCase = Self("unknownCase")
    /// A suite name that does not exist.
    public static let unknownSuite = Self("unknownSuite")
}
