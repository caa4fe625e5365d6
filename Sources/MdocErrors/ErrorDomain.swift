/// A family of failures with one ``MdocError`` type: a module's, or a part of one. Conforming
/// types are caseless enums that only name the domain, say what its errors carry beside a code
/// and a reason, and how they read.
public protocol ErrorDomain {
    /// What the domain's errors record beside the code and the reason; `Void` for nothing.
    associatedtype Context: Sendable = Void

    /// The message `error` prints, the same whatever its source location.
    static func description(of error: MdocError<Self>) -> String
}

extension ErrorDomain {
    /// The error's reason alone.
    public static func description(of error: MdocError<Self>) -> String {
        error.reason
    }
}

/// An ``ErrorDomain`` whose errors concern one named input, a file's path or "standard input",
/// and print it before the reason: `source: reason`, the one line the programs print.
public protocol SourcedErrorDomain: ErrorDomain where Context == String {}

extension SourcedErrorDomain {
    /// `source: reason`.
    public static func description(of error: MdocError<Self>) -> String {
        "\(error.context): \(error.reason)"
    }
}

extension MdocError where Domain: SourcedErrorDomain {
    /// The input concerned: a path, "standard input", "argument", or a name for data in memory.
    public var source: String { context }

    /// A failure of kind `code` with the input `source`, explained by `reason`, made at
    /// `fileID`, `line` (the caller's place, unless given).
    public init(_ code: Code, source: String, _ reason: String, fileID: String = #fileID, line: Int = #line) {
        self.init(code, reason, context: source, fileID: fileID, line: line)
    }
}

/// An ``ErrorDomain`` whose errors print their code before the reason, `code: reason`: the
/// code names a failure of a protocol layer that the reason alone would not.
public protocol CodeNamingErrorDomain: ErrorDomain {}

extension CodeNamingErrorDomain {
    /// `code: reason`.
    public static func description(of error: MdocError<Self>) -> String {
        "\(error.code): \(error.reason)"
    }
}
