import Hummingbird
import MdocText
import NIOCore

/// Why the online verifier refused an HTTP request: the status, a code naming the check that
/// failed and a reason saying what was found and where, sent as the JSON object
/// `{"error": code, "reason": reason}`. Text of the peer's in the reason comes escaped
/// (`UntrustedText`), and the JSON is served as `application/json` that is never sniffed as a
/// page.
public struct ServiceError: Error, HTTPResponseError, CustomStringConvertible {
    /// The HTTP status.
    public let status: HTTPResponse.Status
    /// The check that failed, such as `malformedBody` or `requestNotPending`.
    public let code: String
    /// What was found and where.
    public let reason: String

    /// A refusal with `status`, `code` and `reason`.
    public init(_ status: HTTPResponse.Status, _ code: String, _ reason: String) {
        self.status = status
        self.code = code
        self.reason = reason
    }

    /// `code: reason`.
    public var description: String { "\(code): \(reason)" }

    /// The error object.
    public var json: JSONValue {
        .object([("error", .string(code)), ("reason", .string(reason))])
    }

    /// The error object as the HTTP response, with ``status``.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        JSONResponse.make(json, status: status)
    }
}

/// The JSON responses of the verifier.
enum JSONResponse {
    /// `value` as `application/json`, with `X-Content-Type-Options: nosniff` so that no browser
    /// reads peer text in it as HTML, and `Cache-Control: no-store`.
    static func make(_ value: JSONValue, status: HTTPResponse.Status) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json", .init("X-Content-Type-Options")!: "nosniff", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: value.serialized(pretty: true) + "\n")))
    }
}
