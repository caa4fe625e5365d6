import Foundation
import Glibc
import MdocHTTP
import MdocPosix
import MdocTestSupport
import Testing

/// Fetches against a real server on loopback (Tests/Interop/status/status_server.py): a list
/// byte for byte, and each hostile route ending with its code within its bound and a little
/// slack. The bounds are inactivity and size bounds, not speed races: each case that waits, waits
/// out one bound of ``HTTPFetchLimits`` and no more. One test at a time, so that a 64 MiB transfer
/// of one does not hold up the clock of another.
@Suite(.serialized) struct BoundedHTTPClientTests {
    let client = BoundedHTTPClient()
    /// The defaults, with plain http allowed for the loopback server.
    static let plain = HTTPFetchLimits(allowsPlainHTTP: true)
    /// How long past a bound a loaded machine may take to notice it ran out.
    static let slack: Duration = .milliseconds(1500)
    static let type = StatusListFixture.type

    /// The result of a fetch of `uri` expecting a Status List Token, and how long it took.
    private func fetch(_ uri: String, limits: HTTPFetchLimits = plain) async -> (result: Result<HTTPFetchResult, HTTPFetchError>, elapsed: Duration) {
        let start = ContinuousClock.now
        do {
            let result = try await client.get(uri, accept: Self.type, expectedContentType: Self.type, limits: limits)
            return (.success(result), ContinuousClock.now - start)
        } catch {
            return (.failure(error), ContinuousClock.now - start)
        }
    }

    /// `bound` and the slack, times the test timeout scale.
    private static func within(_ bound: Duration) -> Duration {
        (bound + slack) * TimeoutScale.factor
    }

    private static func error(_ result: Result<HTTPFetchResult, HTTPFetchError>) -> HTTPFetchError? {
        if case .failure(let error) = result { return error }
        return nil
    }

    @Test("a list comes byte for byte with its content type, and each fetch is counted")
    func fetchesList() async throws {
        let fixture = try StatusListFixture()
        let uri = fixture.server.url("/lists/\(StatusListFixture.name)")
        let result = try await client.get(uri, accept: Self.type, expectedContentType: Self.type, limits: Self.plain)
        #expect(result.body == StatusListFixture.token)
        #expect(result.statusCode == 200)
        #expect(result.contentType == Self.type)
        #expect(result.finalURI == uri)
        #expect(result.redirectCount == 0)
        _ = try await client.get(uri, accept: Self.type, limits: Self.plain)
        let hits = try await client.get(fixture.server.url("/hits/\(StatusListFixture.name)"), accept: "text/plain", limits: Self.plain)
        #expect(hits.body == Array("2".utf8))
        #expect(fixture.stop())
    }

    @Test("the request carries the Accept asked for, and no Accept-Encoding")
    func requestHeaders() async throws {
        let fixture = try StatusListFixture()
        let result = try await client.get(fixture.server.url("/echo-headers"), accept: Self.type, limits: Self.plain)
        let lines = String(decoding: result.body, as: UTF8.self).lowercased().split(separator: "\r\n").flatMap { $0.split(separator: "\n") }
        #expect(lines.contains("accept: \(Self.type)"), "\(lines)")
        #expect(!lines.contains { $0.hasPrefix("accept-encoding:") }, "\(lines)")
        #expect(fixture.stop())
    }

    @Test("plain http is refused unless allowed, before any connection")
    func plainHTTPRefused() async throws {
        let fixture = try StatusListFixture()
        let refused = await fetch(fixture.server.url("/lists/\(StatusListFixture.name)"), limits: HTTPFetchLimits())
        #expect(Self.error(refused.result)?.code == .schemeNotAllowed)
        let hits = try await client.get(fixture.server.url("/hits/\(StatusListFixture.name)"), accept: "text/plain", limits: Self.plain)
        #expect(hits.body == Array("0".utf8))
        #expect(fixture.stop())
    }

    @Test("schemes other than http and https are refused, and a URI without one is invalid", arguments: [
        ("ftp://127.0.0.1/list", "schemeNotAllowed"), ("file:///etc/passwd", "schemeNotAllowed"),
        ("https-x://127.0.0.1/", "schemeNotAllowed"), ("no-scheme", "invalidRequest"),
    ])
    func otherSchemesRefused(uri: String, code: String) async {
        #expect(Self.error(await fetch(uri).result)?.code.description == code)
    }

    @Test("a NUL or a line break in the URI or the Accept value is refused")
    func controlCharactersRefused() async {
        #expect(Self.error(await fetch("http://127.0.0.1:1/lists\0/other").result)?.code == .invalidRequest)
        await #expect(throws: HTTPFetchError(.invalidRequest, uri: "", "")) {
            try await client.get("http://127.0.0.1:1/", accept: "a\r\nX-Injected: 1", limits: Self.plain)
        }
    }

    @Test("an unreachable port is connectionRefused at once")
    func unreachable() async throws {
        let port = try Self.closedPort()
        let (result, elapsed) = await fetch("http://127.0.0.1:\(port)/lists/x")
        #expect(Self.error(result)?.code == .connectionRefused)
        #expect(elapsed < Self.within(.zero))
        #expect(Self.error(result)?.uri == "http://127.0.0.1:\(port)/lists/x")
    }

    @Test("a listener whose queue is full never completes the handshake: timeout at the connect timeout")
    func connectTimeout() async throws {
        let (port, descriptors) = try Self.fullListener()
        defer { descriptors.forEach { close($0) } }
        let (result, elapsed) = await fetch("http://127.0.0.1:\(port)/lists/x")
        #expect(Self.error(result)?.code == .timeout, "\(result)")
        #expect(elapsed >= HTTPFetchLimits.defaultConnectTimeout)
        #expect(elapsed < Self.within(HTTPFetchLimits.defaultConnectTimeout))
    }

    @Test("a server sending one byte a second is tooSlow after the low-speed time")
    func slow() async throws {
        let fixture = try StatusListFixture()
        let (result, elapsed) = await fetch(fixture.server.url("/slow/\(StatusListFixture.name)"))
        #expect(Self.error(result)?.code == .tooSlow, "\(result)")
        #expect(elapsed < Self.within(HTTPFetchLimits.defaultLowSpeedTime))
        #expect(fixture.stop())
    }

    @Test("a server that never answers is tooSlow after the low-speed time")
    func stall() async throws {
        let fixture = try StatusListFixture()
        let (result, elapsed) = await fetch(fixture.server.url("/stall"))
        #expect(Self.error(result)?.code == .tooSlow, "\(result)")
        #expect(elapsed < Self.within(HTTPFetchLimits.defaultLowSpeedTime))
        #expect(fixture.stop())
    }

    @Test("a transfer above the low-speed floor is not tooSlow, and ends at the transfer timeout")
    func trickle() async throws {
        let fixture = try StatusListFixture()
        let (result, elapsed) = await fetch(fixture.server.url("/trickle"))
        #expect(Self.error(result)?.code == .timeout, "\(result)")
        // libcurl counts the time in whole milliseconds on a clock of its own (started after
        // ours): its timeout may end up to a millisecond before our reading of it, never more.
        #expect(elapsed >= HTTPFetchLimits.defaultTransferTimeout - .milliseconds(1), "\(elapsed)")
        #expect(elapsed < Self.within(HTTPFetchLimits.defaultTransferTimeout))
        #expect(fixture.stop())
    }

    @Test("cancelling the task ends a stalled fetch promptly")
    func cancellation() async throws {
        let fixture = try StatusListFixture()
        let uri = fixture.server.url("/stall")
        let task = Task { await fetch(uri).result }
        // The fetch is under way once the server counts the stalled request.
        let deadline = ContinuousClock.now + Self.within(HTTPFetchLimits.defaultConnectTimeout)
        var reached = false
        while !reached, ContinuousClock.now < deadline {
            reached = try await client.get(fixture.server.url("/hits/stall"), accept: "text/plain", limits: Self.plain).body == Array("1".utf8)
        }
        #expect(reached, "the stalled request never reached the server")
        let start = ContinuousClock.now
        task.cancel()
        let result = await task.value
        let elapsed = ContinuousClock.now - start
        #expect(Self.error(result)?.code == .cancelled, "\(result)")
        // libcurl calls the progress function about once a second while nothing moves.
        #expect(elapsed < Self.within(.seconds(1)))
        #expect(fixture.stop())
    }

    @Test("a fetch in a task cancelled before it starts is cancelled")
    func cancelledBeforeStart() async throws {
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await fetch("http://127.0.0.1:1/lists/x").result
        }
        #expect(Self.error(await task.value)?.code == .cancelled)
    }

    @Test("a redirect loop is tooManyRedirects")
    func redirectLoop() async throws {
        let fixture = try StatusListFixture()
        let (result, elapsed) = await fetch(fixture.server.url("/redirect-loop"))
        #expect(Self.error(result)?.code == .tooManyRedirects, "\(result)")
        #expect(elapsed < Self.within(.zero))
        #expect(fixture.stop())
    }

    @Test("the most redirects are followed to the list, one more is tooManyRedirects")
    func redirectCount() async throws {
        let fixture = try StatusListFixture()
        let most = HTTPFetchLimits.defaultMaximumRedirects
        let followed = try await fetch(fixture.server.url("/redirect/\(most)/\(StatusListFixture.name)")).result.get()
        #expect(followed.body == StatusListFixture.token)
        #expect(followed.redirectCount == most)
        #expect(followed.finalURI == fixture.server.url("/lists/\(StatusListFixture.name)"))
        let refused = await fetch(fixture.server.url("/redirect/\(most + 1)/\(StatusListFixture.name)"))
        #expect(Self.error(refused.result)?.code == .tooManyRedirects)
        #expect(fixture.stop())
    }

    @Test("a body of the most bytes is accepted, one more is tooLarge, with or without a Content-Length", arguments: ["bytes", "chunked"])
    func bodyBound(route: String) async throws {
        let fixture = try StatusListFixture()
        let most = HTTPFetchLimits.defaultMaximumBodyBytes
        let accepted = try await fetch(fixture.server.url("/\(route)/\(most)")).result.get()
        #expect(accepted.body.count == most)
        #expect(accepted.body.allSatisfy { $0 == 0xA5 })
        let refused = await fetch(fixture.server.url("/\(route)/\(most + 1)"))
        #expect(Self.error(refused.result)?.code == .tooLarge, "\(refused.result)")
        #expect(fixture.stop())
    }

    @Test("a 64 MiB body is tooLarge, whether its Content-Length says so or claims 16 bytes", arguments: ["/big", "/big-lying"])
    func big(path: String) async throws {
        let fixture = try StatusListFixture()
        let (result, elapsed) = await fetch(fixture.server.url(path))
        #expect(Self.error(result)?.code == .tooLarge, "\(result)")
        #expect(elapsed < Self.within(.zero))
        #expect(fixture.stop())
    }

    @Test("a status that is not 2xx is httpStatus with the code", arguments: [404, 500])
    func status(code: Int) async throws {
        let fixture = try StatusListFixture()
        let error = Self.error(await fetch(fixture.server.url("/code/\(code)")).result)
        #expect(error?.code == .httpStatus)
        #expect(error?.statusCode == code)
        #expect(error?.description.contains("\(code)") == true)
        #expect(fixture.stop())
    }

    @Test("another content type is refused when one is expected, and given to the caller when not")
    func contentType() async throws {
        let fixture = try StatusListFixture()
        let uri = fixture.server.url("/type/json")
        #expect(Self.error(await fetch(uri).result)?.code == .contentType)
        let result = try await client.get(uri, accept: Self.type, limits: Self.plain)
        #expect(result.contentType == "application/json")
        #expect(result.body == Array("{}".utf8))
        #expect(fixture.stop())
    }

    @Test("a body with a Content-Encoding not asked for is refused")
    func contentEncoding() async throws {
        let fixture = try StatusListFixture()
        let result = await fetch(fixture.server.url("/gzip/\(StatusListFixture.name)"))
        #expect(Self.error(result.result)?.code == .contentEncoding, "\(result.result)")
        #expect(fixture.stop())
    }

    @Test("https with the test CA fetches the list; without it, TLS fails")
    func https() async throws {
        let fixture = try StatusListFixture(tls: true)
        let uri = fixture.server.tlsURL("/lists/\(StatusListFixture.name)")
        let result = try await fetch(uri, limits: HTTPFetchLimits(caFile: fixture.certificate)).result.get()
        #expect(result.body == StatusListFixture.token)
        #expect(result.contentType == Self.type)
        #expect(Self.error(await fetch(uri, limits: HTTPFetchLimits()).result)?.code == .tls)
        #expect(fixture.stop())
    }

    @Test("a redirect from https to http is refused, even where http is allowed")
    func redirectToHTTP() async throws {
        let fixture = try StatusListFixture(tls: true)
        let uri = fixture.server.tlsURL("/redirect-to-http/\(StatusListFixture.name)")
        for allowsPlainHTTP in [false, true] {
            let limits = HTTPFetchLimits(allowsPlainHTTP: allowsPlainHTTP, caFile: fixture.certificate)
            #expect(Self.error(await fetch(uri, limits: limits).result)?.code == .schemeNotAllowed)
        }
        #expect(fixture.stop())
    }

    @Test("the reason names the URI escaped")
    func reasonEscapesURI() async {
        let uri = "ftp://127.0.0.1/\u{1B}[2J"
        let error = Self.error(await fetch(uri).result)
        #expect(error?.uri == uri)
        #expect(error?.reason.contains("\\u{1B}[2J") == true)
        #expect(error?.reason.contains("\u{1B}") == false)
    }

    /// A loopback port that was bound and closed again, where nothing listens.
    private static func closedPort() throws -> Int {
        let (descriptor, port) = try boundSocket()
        close(descriptor)
        return port
    }

    /// A loopback port whose listener accepts nothing and whose queue is full, so that Linux
    /// drops the next connection's SYN and the client waits (tcp_abort_on_overflow off, the
    /// default); the descriptors to close afterwards.
    private static func fullListener() throws -> (port: Int, descriptors: [Int32]) {
        let (listener, port) = try boundSocket()
        guard listen(listener, 0) == 0 else {
            close(listener)
            throw HelperProcessError("listen failed")
        }
        var descriptors = [listener]
        // A backlog of 0 holds one connection; a few more make sure it is full.
        for _ in 0..<3 {
            let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            guard filler >= 0 else { continue }
            descriptors.append(filler)
            var address = loopback(port: port)
            _ = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(filler, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        // The kernel completes the fillers' handshakes on its own time: wait until the listener
        // says its accept queue is full (for a listener, tcp_info's tcpi_unacked is the queue's
        // length and tcpi_sacked its backlog; full means longer than the backlog).
        let deadline = ContinuousClock.now + Self.within(.seconds(1))
        while !queueIsFull(listener) {
            guard ContinuousClock.now < deadline else {
                descriptors.forEach { close($0) }
                throw HelperProcessError("the listener's queue did not fill")
            }
            sched_yield()
        }
        return (port, descriptors)
    }

    /// Whether the accept queue of the listening socket `descriptor` is full.
    private static func queueIsFull(_ descriptor: Int32) -> Bool {
        var info = tcp_info()
        var length = socklen_t(MemoryLayout<tcp_info>.size)
        guard getsockopt(descriptor, Int32(IPPROTO_TCP), TCP_INFO, &info, &length) == 0 else { return false }
        return info.tcpi_unacked > info.tcpi_sacked
    }

    /// A TCP socket bound to 127.0.0.1 on a port the system picks, and that port.
    private static func boundSocket() throws -> (descriptor: Int32, port: Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw HelperProcessError("socket failed") }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            throw HelperProcessError("bind failed")
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// 127.0.0.1 at `port`.
    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        return address
    }
}
