import CCurl
import MdocCBOR
import Synchronization

/// One GET on a libcurl easy handle (curl_easy_perform(3)), which blocks the thread it runs on
/// until the transfer ends; ``cancel()``, from any thread, makes it end at libcurl's next
/// progress call.
final class CurlTransfer: Sendable {
    /// What to fetch and how, checked before libcurl is involved.
    struct Request: Sendable {
        let uri: String
        let accept: String
        let expectedContentType: String?
        let limits: HTTPFetchLimits
        /// The URI's scheme, lower-case: the one protocol libcurl may use, redirects included.
        let scheme: String

        /// A request, or why it cannot be made: a scheme other than `https` (or `http` when
        /// `limits` allows it), or a NUL or line break that would cut or split what libcurl sends.
        init(uri: String, accept: String, expectedContentType: String?, limits: HTTPFetchLimits) throws(HTTPFetchError) {
            let escaped = UntrustedText.escaped(uri)
            guard !uri.unicodeScalars.contains(where: { $0 == "\0" || $0 == "\r" || $0 == "\n" }),
                  !accept.unicodeScalars.contains(where: { $0 == "\0" || $0 == "\r" || $0 == "\n" }) else {
                throw HTTPFetchError(.invalidRequest, uri: uri, "\(escaped): the URI or the Accept value holds a NUL or a line break")
            }
            guard let colon = uri.firstIndex(of: ":") else {
                throw HTTPFetchError(.invalidRequest, uri: uri, "\(escaped): not an absolute URI")
            }
            let scheme = uri[..<colon].lowercased()
            guard scheme == "https" || (scheme == "http" && limits.allowsPlainHTTP) else {
                throw HTTPFetchError(
                    .schemeNotAllowed, uri: uri,
                    "\(escaped): the scheme is not https\(scheme == "http" ? " (plain http is not allowed)" : "")")
            }
            self.uri = uri
            self.accept = accept
            self.expectedContentType = expectedContentType
            self.limits = limits
            self.scheme = scheme
        }
    }

    private let request: Request
    private let cancellation = Atomic<Bool>(false)

    init(_ request: Request) {
        self.request = request
    }

    /// Abandons the transfer: it ends with `cancelled` at libcurl's next progress call, or before
    /// it starts.
    func cancel() {
        cancellation.store(true, ordering: .releasing)
    }

    private var isCancelled: Bool { cancellation.load(ordering: .acquiring) }

    /// Runs the transfer to its end on the calling thread, which it blocks.
    func perform() -> Result<HTTPFetchResult, HTTPFetchError> {
        let uri = request.uri
        let escaped = UntrustedText.escaped(uri)
        if let failure = mdoc_curl_open() {
            return .failure(HTTPFetchError(.unavailable, uri: uri, "\(escaped): libcurl cannot be used: \(String(cString: failure))"))
        }
        guard let handle = curl_easy_init() else {
            return .failure(HTTPFetchError(.unavailable, uri: uri, "\(escaped): libcurl made no handle"))
        }
        let reception = CurlReception(handle: handle, request: request)
        let errorText = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
        errorText.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        var headers: UnsafeMutablePointer<curl_slist>? = nil
        defer {
            curl_easy_cleanup(handle)
            curl_slist_free_all(headers)
            errorText.deallocate()
        }
        headers = curl_slist_append(nil, "Accept: \(request.accept)")
        guard headers != nil else {
            return .failure(HTTPFetchError(.unavailable, uri: uri, "\(escaped): libcurl could not hold the Accept header"))
        }

        let start = ContinuousClock.now
        let outcome: Result<CURLcode, HTTPFetchError> = withExtendedLifetime(reception) {
            let transfer = Unmanaged.passUnretained(self).toOpaque()
            let received = Unmanaged.passUnretained(reception).toOpaque()
            if let refused = configure(handle, headers: headers, errorText: errorText, transfer: transfer, reception: received) {
                return .failure(HTTPFetchError(
                    .unavailable, uri: uri, "\(escaped): libcurl refused an option: \(String(cString: curl_easy_strerror(refused)))"))
            }
            guard !isCancelled else { return .success(CURLE_ABORTED_BY_CALLBACK) }
            return .success(curl_easy_perform(handle))
        }
        let elapsed = ContinuousClock.now - start
        let code: CURLcode
        switch outcome {
        case .success(let result): code = result
        case .failure(let error): return .failure(error)
        }

        if let refusal = reception.refusal { return .failure(refusal) }
        guard code == CURLE_OK else {
            return .failure(failure(code, errorText: String(cString: errorText)))
        }
        // A body-less response never reached the write callback's checks.
        if let refusal = reception.checkResponse() { return .failure(refusal) }
        var finalURI: UnsafePointer<CChar>? = nil
        var redirects = 0
        _ = mdoc_curl_getinfo_string(handle, CURLINFO_EFFECTIVE_URL, &finalURI)
        _ = mdoc_curl_getinfo_long(handle, CURLINFO_REDIRECT_COUNT, &redirects)
        return .success(HTTPFetchResult(
            statusCode: reception.statusCode, contentType: reception.contentType, body: reception.body,
            finalURI: finalURI.map { String(cString: $0) } ?? uri, redirectCount: redirects, elapsed: elapsed))
    }

    /// Sets every option of the transfer; the first code that is not CURLE_OK (an option or a
    /// protocol this libcurl does not have), else nil.
    private func configure(
        _ handle: UnsafeMutableRawPointer, headers: UnsafeMutablePointer<curl_slist>?, errorText: UnsafeMutablePointer<CChar>,
        transfer: UnsafeMutableRawPointer, reception: UnsafeMutableRawPointer
    ) -> CURLcode? {
        let limits = request.limits
        let codes: [CURLcode] = [
            mdoc_curl_setopt_string(handle, CURLOPT_URL, request.uri),
            // Only the scheme asked for, on the first request and on every redirect.
            mdoc_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, request.scheme),
            mdoc_curl_setopt_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, request.scheme),
            mdoc_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 1),
            mdoc_curl_setopt_long(handle, CURLOPT_MAXREDIRS, max(0, limits.maximumRedirects)),
            mdoc_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(limits.connectTimeout)),
            mdoc_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, Self.milliseconds(limits.transferTimeout)),
            mdoc_curl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, max(0, limits.lowSpeedBytesPerSecond)),
            mdoc_curl_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, max(1, (Self.milliseconds(limits.lowSpeedTime) + 999) / 1000)),
            // A Content-Length over the bound ends the transfer before the body; the write
            // callback counts the bytes whatever the length said.
            mdoc_curl_setopt_off_t(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(max(0, limits.maximumBodyBytes))),
            // An empty proxy overrides the environment's (curl_easy_setopt(3), CURLOPT_PROXY).
            mdoc_curl_setopt_string(handle, CURLOPT_PROXY, ""),
            // No signals: the transfer runs on a thread of a threaded program.
            mdoc_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1),
            mdoc_curl_setopt_pointer(handle, CURLOPT_HTTPHEADER, headers),
            mdoc_curl_setopt_string(handle, CURLOPT_USERAGENT, "swift-mdoc"),
            mdoc_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorText),
            mdoc_curl_setopt_write_function(handle, { data, size, count, reception in
                guard let data, let reception else { return 0 }
                return Unmanaged<CurlReception>.fromOpaque(reception).takeUnretainedValue()
                    .receive(UnsafeRawBufferPointer(start: data, count: size * count))
            }),
            mdoc_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, reception),
            mdoc_curl_setopt_long(handle, CURLOPT_NOPROGRESS, 0),
            mdoc_curl_setopt_xferinfo_function(handle, { transfer, _, _, _, _ in
                guard let transfer else { return 1 }
                return Unmanaged<CurlTransfer>.fromOpaque(transfer).takeUnretainedValue().isCancelled ? 1 : 0
            }),
            mdoc_curl_setopt_pointer(handle, CURLOPT_XFERINFODATA, transfer),
        ] + (limits.caFile.map { [mdoc_curl_setopt_string(handle, CURLOPT_CAINFO, $0)] } ?? [])
        return codes.first { $0 != CURLE_OK }
    }

    /// The error of a transfer that ended with `code` and no refusal of its own.
    private func failure(_ code: CURLcode, errorText: String) -> HTTPFetchError {
        let uri = request.uri
        let limits = request.limits
        let detail = UntrustedText.escaped(errorText.isEmpty ? String(cString: curl_easy_strerror(code)) : errorText)
        let prefix = UntrustedText.escaped(uri) + ": "
        switch code {
        case CURLE_ABORTED_BY_CALLBACK:
            return HTTPFetchError(.cancelled, uri: uri, prefix + "the fetch was cancelled")
        case CURLE_UNSUPPORTED_PROTOCOL:
            return HTTPFetchError(.schemeNotAllowed, uri: uri, prefix + "a redirect left the scheme \(request.scheme) (\(detail))")
        case CURLE_URL_MALFORMAT:
            return HTTPFetchError(.invalidRequest, uri: uri, prefix + detail)
        case CURLE_COULDNT_CONNECT:
            return HTTPFetchError(.connectionRefused, uri: uri, prefix + detail)
        case CURLE_TOO_MANY_REDIRECTS:
            return HTTPFetchError(.tooManyRedirects, uri: uri, prefix + "more than \(limits.maximumRedirects) redirects")
        case CURLE_FILESIZE_EXCEEDED:
            return HTTPFetchError(.tooLarge, uri: uri, prefix + "the Content-Length is over \(limits.maximumBodyBytes) bytes")
        case CURLE_OPERATION_TIMEDOUT:
            // libcurl gives one code for its three clocks (connect, whole transfer, low speed);
            // only its message tells them apart, in the words libcurl has used since 7.x
            // (lib/speedcheck.c). The clocks of this process and of libcurl differ by a few
            // milliseconds, too much to tell a low-speed abort from the deadline by time alone.
            if errorText.hasPrefix("Operation too slow") {
                return HTTPFetchError(
                    .tooSlow, uri: uri,
                    prefix + "under \(limits.lowSpeedBytesPerSecond) bytes per second for \(limits.lowSpeedTime) (\(detail))")
            }
            return HTTPFetchError(.timeout, uri: uri, prefix + detail)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CRL_BADFILE,
             CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_ENGINE_INITFAILED,
             CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_USE_SSL_FAILED:
            return HTTPFetchError(.tls, uri: uri, prefix + detail)
        case CURLE_NOT_BUILT_IN, CURLE_FAILED_INIT, CURLE_OUT_OF_MEMORY:
            return HTTPFetchError(.unavailable, uri: uri, prefix + "libcurl cannot make this fetch: \(detail)")
        default:
            return HTTPFetchError(.transferFailed, uri: uri, prefix + detail)
        }
    }

    /// `duration` in whole milliseconds, at least 1 (0 means "no limit" to libcurl).
    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        guard seconds < Int64(Int.max / 1000) - 1 else { return Int.max / 1000 * 1000 }
        return max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
    }
}
