import Glibc

/// The system calls the sim link needs: AF_UNIX SOCK_SEQPACKET sockets in the Linux abstract
/// namespace (unix(7), "Abstract sockets"), each failure turned into a `BLEError`.
enum SimSocket {
    /// The longest abstract socket name: `sun_path` holds 108 octets, the first being the 0 that
    /// marks the abstract namespace (unix(7)).
    static let maximumNameLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1
    /// Where `sun_path` starts in `sockaddr_un`: the address length counts from there.
    private static let pathOffset = MemoryLayout<sockaddr_un>.size - MemoryLayout.size(ofValue: sockaddr_un().sun_path)

    /// A new SOCK_SEQPACKET socket, close-on-exec and non-blocking.
    static func makeSocket(_ what: String) throws(BLEError) -> Int32 {
        let type = Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        let fd = socket(AF_UNIX, type, 0)
        guard fd >= 0 else { throw SystemCall.failure("socket", errno, what) }
        return fd
    }

    /// Calls `body` with the abstract socket address `name`; throws when the name does not fit.
    static func withAddress<Result>(
        _ name: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result
    ) throws(BLEError) -> Result {
        let bytes = Array(name.utf8)
        guard bytes.count <= maximumNameLength else {
            throw BLEError(.systemCall,
                           "the sim address \"\(name)\" is \(bytes.count) bytes, above the \(maximumNameLength) an abstract Unix socket name holds")
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            path[0] = 0
            for (index, byte) in bytes.enumerated() { path[index + 1] = byte }
        }
        let length = socklen_t(pathOffset + 1 + bytes.count)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }
}
