import Glibc
import MdocBLE
import MdocPosix

/// The system calls of the sim link: AF_UNIX SOCK_SEQPACKET sockets in the Linux abstract
/// namespace (unix(7), "Abstract sockets"), each failure turned into a `BLEError`.
enum SimSocket {
    /// The longest abstract socket name.
    static let maximumNameLength = AbstractSocketAddress.maximumNameLength
    /// How many connections a listening sim socket lets wait for accept(2): the event loop takes
    /// them as they come, so this only bounds a burst.
    static let backlog: Int32 = 64

    /// A new SOCK_SEQPACKET socket, close-on-exec and non-blocking.
    static func makeSocket(_ what: String) throws(BLEError) -> Int32 {
        let type = Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        return try SystemCall.make("socket", what) { socket(AF_UNIX, type, 0) }
    }

    /// A socket bound to the abstract name `name` and listening. Throws `systemCall` when the
    /// name is taken or the socket fails.
    static func listen(on name: String, backlog: Int32 = backlog, _ what: String) throws(BLEError) -> Int32 {
        let fd = try makeSocket(what)
        do throws(BLEError) {
            let bound = try withAddress(name) { (address, length) throws(BLEError) in
                SystemCall.make { bind(fd, address, length) }
            }
            if case .failure(let error) = bound {
                if error.code == EADDRINUSE {
                    throw BLEError(.serviceInUse, "another peer advertises \"\(name)\" already, while \(what)")
                }
                throw SystemCall.failure("bind", error.code, what)
            }
            try SystemCall.make("listen", what) { Glibc.listen(fd, backlog) }
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    /// A socket connected to the listener named `name`, or errno when there is none: ECONNREFUSED
    /// or ENOENT when nobody listens, EAGAIN when its backlog is full.
    static func connect(to name: String, _ what: String) throws(BLEError) -> Result<Int32, SystemCall.Errno> {
        let fd = try makeSocket(what)
        let connected = try withAddress(name) { address, length in
            SystemCall.make { Glibc.connect(fd, address, length) }
        }
        switch connected {
        case .success: return .success(fd)
        case .failure(let error):
            close(fd)
            return .failure(error)
        }
    }

    /// Calls `body` with the abstract socket address `name`; throws when the name does not fit.
    static func withAddress<Result>(
        _ name: String, _ body: (UnsafePointer<sockaddr>, socklen_t) throws(BLEError) -> Result
    ) throws(BLEError) -> Result {
        try AbstractSocketAddress.withAddress(name, tooLong: { octets in
            BLEError(.systemCall,
                     "the sim address \"\(name)\" is \(octets) bytes, above the \(maximumNameLength) an abstract Unix socket name holds")
        }, body)
    }
}
