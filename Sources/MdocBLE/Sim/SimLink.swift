import Glibc
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The `sim` transport's link layer (docs/architecture.md section 4): ATT bearers over AF_UNIX
/// SOCK_SEQPACKET sockets in the Linux abstract namespace, named after the 18013-5 service UUID
/// the way an LE peripheral advertises it (ISO/IEC 18013-5 Table A.1). Advertising binds the
/// name; connecting ("scanning") retries until the name appears.
public enum SimLink: Sendable {
    /// The environment variable whose value prefixes every sim address, so concurrent test runs
    /// on one machine do not meet each other.
    public static let namespaceVariable = "MDOC_SIM_NAMESPACE"
    /// How often ``connect(serviceUUID:timeout:)`` retries while nobody advertises.
    public static let scanInterval: Duration = .milliseconds(20)

    /// The abstract socket name for `serviceUUID`: `mdoc-sim/<lowercase uuid>`, after the value
    /// of `MDOC_SIM_NAMESPACE` when it is set.
    public static func address(of serviceUUID: UUID) -> String {
        address(of: serviceUUID, namespace: getenv(namespaceVariable).map { String(cString: $0) } ?? "")
    }

    static func address(of serviceUUID: UUID, namespace: String) -> String {
        namespace + "mdoc-sim/" + serviceUUID.uuidString.lowercased()
    }

    /// Starts advertising `serviceUUID`: binds its address and listens. Throws `serviceInUse`
    /// when someone advertises it already, `systemCall` when the socket fails.
    public static func advertise(serviceUUID: UUID) throws(BLEError) -> SimAdvertiser {
        try advertise(address: address(of: serviceUUID))
    }

    static func advertise(address: String) throws(BLEError) -> SimAdvertiser {
        let socket = try SimSocket.makeSocket("advertising \"\(address)\"")
        let bound = try SimSocket.withAddress(address) { bind(socket, $0, $1) == 0 ? 0 : errno }
        guard bound == 0, listen(socket, 1) == 0 else {
            let code = bound == 0 ? errno : bound
            close(socket)
            if code == EADDRINUSE {
                throw BLEError(.serviceInUse, "another peer advertises \"\(address)\" already")
            }
            throw SystemCall.failure(bound == 0 ? "listen" : "bind", code, "advertising \"\(address)\"")
        }
        return SimAdvertiser(address: address, listener: socket)
    }

    /// Connects to whoever advertises `serviceUUID`, retrying every ``scanInterval`` while
    /// nobody does. Throws `peerNotFound` when no advertiser appeared within `timeout`.
    public static func connect(serviceUUID: UUID, timeout: Duration) async throws(BLEError) -> SimBearer {
        try await connect(address: address(of: serviceUUID), timeout: timeout)
    }

    static func connect(address: String, timeout: Duration) async throws(BLEError) -> SimBearer {
        let deadline = ContinuousClock.now + timeout
        while true {
            let socket = try SimSocket.makeSocket("connecting to \"\(address)\"")
            let code = try SimSocket.withAddress(address) { Glibc.connect(socket, $0, $1) == 0 ? 0 : errno }
            if code == 0 { return try SimBearer(socket: socket) }
            close(socket)
            // Nobody listens (yet), or the listener's backlog is full: keep scanning.
            guard code == ECONNREFUSED || code == ENOENT || code == EAGAIN || code == EINTR else {
                throw SystemCall.failure("connect", code, "connecting to \"\(address)\"")
            }
            guard ContinuousClock.now < deadline else {
                throw BLEError(.peerNotFound, "nobody advertised \"\(address)\" within \(timeout)")
            }
            do {
                try await Task.sleep(for: scanInterval)
            } catch {
                throw BLEError(.peerNotFound, "scanning for \"\(address)\" was cancelled")
            }
        }
    }

    /// The service names advertised over sim now, with their UUIDs: the listening abstract
    /// sockets of /proc/net/unix (unix(7)) named `mdoc-sim/<uuid>` after the namespace.
    static func advertisedNames() -> [(name: String, uuid: UUID)] {
        let namespace = getenv(namespaceVariable).map { String(cString: $0) } ?? ""
        let prefix = "@" + namespace + "mdoc-sim/"
        guard let table = try? String(contentsOfFile: "/proc/net/unix", encoding: .utf8) else { return [] }
        return table.split(separator: "\n").dropFirst().compactMap { line in
            // Num RefCount Protocol Flags Type St Inode Path; Flags 00010000 marks a listener.
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 8, fields[3] == "00010000", fields[7].hasPrefix(prefix),
                  let uuid = UUID(uuidString: String(fields[7].dropFirst(prefix.count))) else { return nil }
            return (String(fields[7].dropFirst()), uuid)
        }
    }
}
