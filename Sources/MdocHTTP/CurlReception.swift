import CCurl
import MdocCBOR

/// What a ``CurlTransfer`` receives, on the thread that runs it: the body so far, and why the
/// response was refused when a check failed before the body ended. libcurl's write callback feeds
/// it; it is never shared between threads.
final class CurlReception {
    private let handle: UnsafeMutableRawPointer
    private let request: CurlTransfer.Request
    /// The body's bytes so far, at most the bound.
    private(set) var body: [UInt8] = []
    /// Why the response was refused; the transfer was aborted for it.
    private(set) var refusal: HTTPFetchError?
    /// Whether ``checkResponse()`` passed for the response the body belongs to.
    private var responseChecked = false
    /// The final response's status code and Content-Type, once checked.
    private(set) var statusCode = 0
    private(set) var contentType: String?

    init(handle: UnsafeMutableRawPointer, request: CurlTransfer.Request) {
        self.handle = handle
        self.request = request
    }

    /// Takes the next bytes of the body: their count to go on, 0 to abort the transfer (its
    /// response refused, or the body over the bound).
    func receive(_ bytes: UnsafeRawBufferPointer) -> Int {
        if !responseChecked {
            if let refusal = checkResponse() {
                self.refusal = refusal
                return 0
            }
        }
        let limit = request.limits.maximumBodyBytes
        guard bytes.count <= limit - body.count else {
            refusal = HTTPFetchError(
                .tooLarge, uri: request.uri, "\(UntrustedText.escaped(request.uri)): the body passed \(limit) bytes")
            return 0
        }
        body.append(contentsOf: bytes)
        return bytes.count
    }

    /// Checks the final response's head, once its first body bytes arrive or the transfer ends:
    /// a 2xx status (draft-ietf-oauth-status-list section 8.2), no content coding, the media type
    /// asked for. nil when it passes.
    func checkResponse() -> HTTPFetchError? {
        let uri = request.uri
        let prefix = UntrustedText.escaped(uri) + ": "
        var code = 0
        _ = mdoc_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code)
        guard (200...299).contains(code) else {
            return HTTPFetchError(.httpStatus, uri: uri, statusCode: code, prefix + "the server answered with status \(code)")
        }
        var header: UnsafeMutablePointer<curl_header>? = nil
        if curl_easy_header(handle, "Content-Encoding", 0, UInt32(CURLH_HEADER), -1, &header) == CURLHE_OK,
           let value = header?.pointee.value.map({ String(cString: $0) }),
           value.trimmingWhitespace.lowercased() != "identity" {
            return HTTPFetchError(
                .contentEncoding, uri: uri, prefix + "the body came with Content-Encoding \(UntrustedText.escaped(value)), which was not asked for")
        }
        var type: UnsafePointer<CChar>? = nil
        _ = mdoc_curl_getinfo_string(handle, CURLINFO_CONTENT_TYPE, &type)
        let contentType = type.map { String(cString: $0) }
        if let expected = request.expectedContentType {
            let mediaType = contentType.map { $0.prefix { $0 != ";" }.trimmingWhitespace.lowercased() }
            guard mediaType == expected.lowercased() else {
                return HTTPFetchError(
                    .contentType, uri: uri,
                    prefix + "the Content-Type is \(contentType.map { UntrustedText.escaped($0) } ?? "missing"), not \(expected)")
            }
        }
        statusCode = code
        self.contentType = contentType
        responseChecked = true
        return nil
    }
}

extension StringProtocol {
    /// The text without the spaces and tabs (RFC 9110 section 5.6.3, OWS) around it.
    fileprivate var trimmingWhitespace: String {
        let isWhitespace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        return String(drop(while: isWhitespace).reversed().drop(while: isWhitespace).reversed())
    }
}
