import Glibc

/// An address in the Linux abstract socket namespace (unix(7), "Abstract sockets"): a name that
/// no file holds, gone when its last socket closes. The sim link and the D-Bus client connect to
/// such names.
package enum AbstractSocketAddress {
    /// The longest name: `sun_path` holds 108 octets, the first being the 0 that marks the
    /// abstract namespace.
    package static let maximumNameLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1
    /// Where `sun_path` starts in `sockaddr_un`: the address length counts from there.
    private static let pathOffset = MemoryLayout<sockaddr_un>.size - MemoryLayout.size(ofValue: sockaddr_un().sun_path)

    /// Calls `body` with the address of `name`; the error `tooLong` makes when the name is
    /// longer than ``maximumNameLength`` octets.
    package static func withAddress<Result, Failure: Error>(
        _ name: String, tooLong: (_ octets: Int) -> Failure,
        _ body: (UnsafePointer<sockaddr>, socklen_t) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let bytes = Array(name.utf8)
        guard bytes.count <= maximumNameLength else { throw tooLong(bytes.count) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            path[0] = 0
            for (index, byte) in bytes.enumerated() { path[index + 1] = byte }
        }
        let length = socklen_t(pathOffset + 1 + bytes.count)
        return try withUnsafePointer(to: &address) { (pointer) throws(Failure) -> Result in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { (address) throws(Failure) -> Result in
                try body(address, length)
            }
        }
    }
}
