import MdocCBOR
import MdocPosix

/// Fetches one resource with HTTP GET within ``HTTPFetchLimits``: the reader's side of a Status
/// List Token fetch (draft-ietf-oauth-status-list section 8.1: GET the status list `uri` with
/// `Accept: application/statuslist+cwt`; section 8.2: a 2xx response of that type, redirects
/// followed with care).
///
/// libcurl does the HTTP and TLS. It is opened on the first fetch, not when a program starts
/// (CCurl over CDynamicLibrary), so programs that fetch nothing never load it and what it brings.
/// Its easy interface blocks, so each fetch runs on a thread of its own (MdocPosix's `DetachedThread`),
/// never on Swift concurrency's cooperative pool. Cancelling the task that awaits a fetch abandons
/// the transfer within about a second, the longest libcurl waits between progress calls.
///
/// What is never done: no `Accept-Encoding` is sent and no content coding is undone (a body sent
/// compressed anyway is refused, so the size bound holds for what the caller gets); proxies named
/// by the environment (`https_proxy`, `all_proxy`...) are ignored; no cookies, `.netrc` or
/// credentials are used; a redirect keeps the scheme asked for.
public struct BoundedHTTPClient: Sendable {
    /// A client; it holds nothing between fetches.
    public init() {}

    /// The final response to `GET uri` with `Accept: accept`, within `limits`; when
    /// `expectedContentType` is given, the response's media type must be it (compared without
    /// parameters and case, RFC 9110 section 8.3.1).
    ///
    /// Throws an ``HTTPFetchError`` whose code names what stopped the fetch: the URI's scheme, a
    /// bound of `limits`, a status that is not 2xx, the content type or a content coding, TLS,
    /// the task's cancellation, or libcurl missing.
    public func get(
        _ uri: String, accept: String, expectedContentType: String? = nil, limits: HTTPFetchLimits = HTTPFetchLimits()
    ) async throws(HTTPFetchError) -> HTTPFetchResult {
        let request = try CurlTransfer.Request(uri: uri, accept: accept, expectedContentType: expectedContentType, limits: limits)
        let transfer = CurlTransfer(request)
        let outcome: Result<HTTPFetchResult, HTTPFetchError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                do throws(SystemCall.Errno) {
                    try DetachedThread.start { continuation.resume(returning: transfer.perform()) }
                } catch {
                    continuation.resume(returning: .failure(HTTPFetchError(
                        .unavailable, uri: uri, "\(UntrustedText.escaped(uri)): no thread for the transfer (error \(error.code))")))
                }
            }
        } onCancel: {
            transfer.cancel()
        }
        return try outcome.get()
    }
}
