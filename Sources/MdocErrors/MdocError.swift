/// An error of swift-mdoc in the domain `Domain`: a ``code`` to match on, a ``reason`` for
/// people, the ``context`` the domain adds, and the place in the toolkit's sources where it was
/// made (``fileID`` and ``line``), after swift-certificates' `CertificateError`.
///
/// Every module's error type is this type of the module's domain, under the module's name for
/// it: `public typealias SessionError = MdocError<SessionErrorDomain>`. Its codes are static
/// members of ``ErrorKind`` where `Domain` is that type. Errors of two domains are of two types;
/// errors of one domain are equal when their codes are, whatever their reasons, context or
/// source location. The ``description``, which the programs print, is the domain's
/// (``ErrorDomain/description(of:)``) and never shows the source location.
public struct MdocError<Domain: ErrorDomain>: CodedError {
    /// The codes of this domain: ``ErrorKind`` values defined in extensions where their
    /// `Domain` is this type. New codes may be added without breaking callers.
    public typealias Code = ErrorKind<MdocError<Domain>>

    /// What kind of failure this is; compare this, not the message.
    public var code: Code
    /// What was wrong, for people.
    public var reason: String
    /// What the domain records beside the code and the reason (a CBOR path, an input's name):
    /// read through the domain's own names for it (`error.path`), changed here.
    public var context: Domain.Context
    /// The `#fileID` of the source file where the error was made, for debugging.
    public let fileID: String
    /// The line of ``fileID`` where the error was made.
    public let line: Int

    /// A failure of kind `code`, explained by `reason`, with the domain's `context`, made at
    /// `fileID`, `line` (the caller's place, unless given).
    public init(_ code: Code, _ reason: String, context: Domain.Context, fileID: String = #fileID, line: Int = #line) {
        self.code = code
        self.reason = reason
        self.context = context
        self.fileID = fileID
        self.line = line
    }

    /// The message for people, as the domain writes it: by default the ``reason`` alone.
    public var description: String { Domain.description(of: self) }
}

extension MdocError where Domain.Context == Void {
    /// A failure of kind `code`, explained by `reason`, made at `fileID`, `line` (the caller's
    /// place, unless given).
    public init(_ code: Code, _ reason: String, fileID: String = #fileID, line: Int = #line) {
        self.init(code, reason, context: (), fileID: fileID, line: line)
    }
}

extension MdocError where Domain.Context: ExpressibleByNilLiteral {
    /// A failure of kind `code`, explained by `reason`, without context, made at `fileID`,
    /// `line` (the caller's place, unless given).
    public init(_ code: Code, _ reason: String, fileID: String = #fileID, line: Int = #line) {
        self.init(code, reason, context: nil, fileID: fileID, line: line)
    }
}
