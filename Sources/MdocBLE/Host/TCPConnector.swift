import Glibc

/// Opens the TCP connection of `hci:tcp:HOST:PORT`: name resolution, a non-blocking connect
/// bounded by a timeout, TCP_NODELAY (HCI packets are small and latency-bound).
enum TCPConnector {
    /// A connected, non-blocking, close-on-exec TCP socket to `host`:`port`.
    static func connect(host: String, port: UInt16, timeout: Duration) async throws(BLEError) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(host, String(port), &hints, &list)
        guard resolved == 0, let first = list else {
            throw BLEError(.transportUnavailable,
                           "hci:tcp:\(host):\(port): cannot resolve \"\(host)\": \(String(cString: gai_strerror(resolved)))")
        }
        defer { freeaddrinfo(list) }
        var lastError: Int32 = ECONNREFUSED
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            entry = current.pointee.ai_next
            let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
            let fd = socket(current.pointee.ai_family, type, 0)
            guard fd >= 0 else {
                lastError = errno
                continue
            }
            var code = Glibc.connect(fd, current.pointee.ai_addr, current.pointee.ai_addrlen) == 0 ? 0 : errno
            if code == EINPROGRESS { code = awaitConnection(fd, timeout: timeout) }
            if code == 0 {
                var one: Int32 = 1
                _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                return fd
            }
            lastError = code
            Glibc.close(fd)
        }
        if lastError == ECONNREFUSED {
            throw BLEError(.transportUnavailable,
                           "hci:tcp:\(host):\(port): nothing listens there; start a controller first, for example `python3 -m bumble.apps.controllers tcp-server:127.0.0.1:\(port) tcp-server:127.0.0.1:\(port &+ 1)`")
        }
        if lastError == ETIMEDOUT {
            throw BLEError(.transportUnavailable, "hci:tcp:\(host):\(port): no answer within \(timeout)")
        }
        throw SystemCall.failure("connect", lastError, "connecting to the controller at \(host):\(port)")
    }

    /// Waits for a non-blocking connect on `fd`; 0 when connected, else the errno (ETIMEDOUT
    /// when `timeout` passed).
    private static func awaitConnection(_ fd: Int32, timeout: Duration) -> Int32 {
        var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        let milliseconds = Int32(clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        var ready: Int32
        repeat {
            ready = poll(&descriptor, 1, milliseconds)
        } while ready < 0 && errno == EINTR
        if ready == 0 { return ETIMEDOUT }
        if ready < 0 { return errno }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else { return errno }
        return error
    }
}
