import MdocErrors

/// Why a fetch gave no body (draft-ietf-oauth-status-list section 8: the reader GETs the status
/// list `uri`; a failure leaves the status unchecked, it never makes a document revoked). The code
/// names the bound or check that stopped it; the reason names the URI, escaped.
///
/// Equality compares the code only.
public typealias HTTPFetchError = MdocError<HTTPFetchErrorDomain>

/// The domain of ``HTTPFetchError``, whose errors print `code: reason`.
public enum HTTPFetchErrorDomain: CodeNamingErrorDomain {
    /// The URI asked for, and the status code of an `httpStatus` failure.
    public typealias Context = HTTPFetchFailure
}

extension MdocError where Domain == HTTPFetchErrorDomain {
    /// The URI asked for, as given (not escaped).
    public var uri: String { context.uri }

    /// For `httpStatus`: the final response's status code.
    public var statusCode: Int? { context.statusCode }

    /// A failure of kind `code` fetching `uri`, explained by `reason`; made at `fileID`, `line`
    /// (the caller's place, unless given).
    public init(_ code: Code, uri: String, statusCode: Int? = nil, _ reason: String, fileID: String = #fileID, line: Int = #line) {
        self.init(code, reason, context: HTTPFetchFailure(uri: uri, statusCode: statusCode), fileID: fileID, line: line)
    }
}

extension ErrorKind where Domain == HTTPFetchError {
    /// The request cannot be made: the URI is not an absolute URI libcurl accepts, or it or the
    /// Accept value holds a NUL or line break.
    public static let invalidRequest = Self("invalidRequest")
    /// The URI's scheme, or a redirect's, is not allowed: only `https` (and `http` when
    /// ``HTTPFetchLimits/allowsPlainHTTP``), and a redirect never changes the scheme.
    public static let schemeNotAllowed = Self("schemeNotAllowed")
    /// No connection could be made: refused, or no route to the address.
    public static let connectionRefused = Self("connectionRefused")
    /// Connecting took longer than ``HTTPFetchLimits/connectTimeout``, or the whole transfer
    /// longer than ``HTTPFetchLimits/transferTimeout``.
    public static let timeout = Self("timeout")
    /// The transfer stayed under ``HTTPFetchLimits/lowSpeedBytesPerSecond`` for
    /// ``HTTPFetchLimits/lowSpeedTime``: a trickling or stalled server.
    public static let tooSlow = Self("tooSlow")
    /// The body passed ``HTTPFetchLimits/maximumBodyBytes``, or its Content-Length announced that
    /// it would.
    public static let tooLarge = Self("tooLarge")
    /// More than ``HTTPFetchLimits/maximumRedirects`` redirects, a loop among them.
    public static let tooManyRedirects = Self("tooManyRedirects")
    /// The final response's status is not 2xx (draft section 8.2); the error's `statusCode` has it.
    public static let httpStatus = Self("httpStatus")
    /// The final response's Content-Type is not the one asked for.
    public static let contentType = Self("contentType")
    /// The body came with a Content-Encoding (gzip, br...) though none was accepted: the client
    /// decodes nothing, so the size bound holds for the bytes the caller gets.
    public static let contentEncoding = Self("contentEncoding")
    /// TLS failed: the handshake, or the server's certificate did not verify for its address.
    public static let tls = Self("tls")
    /// The task that asked was cancelled; the transfer was abandoned.
    public static let cancelled = Self("cancelled")
    /// libcurl (libcurl.so.4) is not installed or lacks a function or option used, or no thread
    /// could be started for the transfer.
    public static let unavailable = Self("unavailable")
    /// Any other failure of the transfer: the name did not resolve, the connection broke, the
    /// response was not well-formed HTTP.
    public static let transferFailed = Self("transferFailed")
}
