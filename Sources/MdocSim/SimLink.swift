import Glibc
import MdocBLE
import MdocPosix
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The `sim` transport's link layer (docs/architecture.md section 4): ATT bearers over AF_UNIX
/// SOCK_SEQPACKET sockets in the Linux abstract namespace, named after the 18013-5 service UUID
/// the way an LE peripheral advertises it (ISO/IEC 18013-5 Table A.1). Advertising binds the
/// name and announces it to the scanners listening (`SimScanner`); connecting ("scanning")
/// connects at once when the name is bound, else when an advertiser of it announces itself.
public enum SimLink: Sendable {
    /// The environment variable whose value prefixes every sim address, so concurrent test runs
    /// on one machine do not meet each other.
    public static let namespaceVariable = "MDOC_SIM_NAMESPACE"

    /// The value of `MDOC_SIM_NAMESPACE`, empty when it is not set.
    static var namespace: String {
        getenv(namespaceVariable).map { String(cString: $0) } ?? ""
    }

    /// The abstract socket name for `serviceUUID`: `mdoc-sim/<lowercase uuid>`, after the value
    /// of `MDOC_SIM_NAMESPACE` when it is set.
    public static func address(of serviceUUID: UUID) -> String {
        address(of: serviceUUID, namespace: namespace)
    }

    static func address(of serviceUUID: UUID, namespace: String) -> String {
        namespace + "mdoc-sim/" + serviceUUID.uuidString.lowercased()
    }

    /// Starts advertising `serviceUUID`: binds its address, listens, and announces it to the
    /// scanners listening. Throws `serviceInUse` when someone advertises it already, `systemCall`
    /// when the socket fails.
    public static func advertise(serviceUUID: UUID) throws(BLEError) -> SimAdvertiser {
        try advertise(address: address(of: serviceUUID))
    }

    static func advertise(address: String) throws(BLEError) -> SimAdvertiser {
        let socket = try SimSocket.listen(on: address, "advertising \"\(address)\"")
        let advertiser = SimAdvertiser(address: address, socket: socket)
        announce(address)
        return advertiser
    }

    /// Connects to whoever advertises `serviceUUID`; while nobody does, it waits for an
    /// advertiser to announce itself. Throws `peerNotFound` when no advertiser appeared within
    /// `timeout`.
    public static func connect(serviceUUID: UUID, timeout: Duration) async throws(BLEError) -> SimBearer {
        try await connect(address: address(of: serviceUUID), timeout: timeout)
    }

    /// ``connect(serviceUUID:timeout:)`` to `address`; `listening` is called once the scanner
    /// listens for announcements, when nobody advertised `address` at the first attempt.
    static func connect(address: String, timeout: Duration,
                        listening: @Sendable () -> Void = {}) async throws(BLEError) -> SimBearer {
        let deadline = ContinuousClock.now + timeout
        if let socket = try attempt(address) { return try await SimBearer.connected(socket: socket) }
        // Listening before the next attempt: an advertiser binding after it announces to us.
        let scanner = try SimScanner(lookingFor: address)
        defer { scanner.stop() }
        listening()
        while true {
            if let socket = try attempt(address) { return try await SimBearer.connected(socket: socket) }
            var announced: String?
            repeat {
                announced = try await scanner.nextAnnouncement(until: deadline) {
                    "nobody advertised \"\(address)\" within \(timeout)"
                }
                guard announced != nil else { throw BLEError(.peerNotFound, "scanning for \"\(address)\" stopped") }
            } while announced != address
        }
    }

    /// A socket connected to `address`, nil when nobody advertises it.
    private static func attempt(_ address: String) throws(BLEError) -> Int32? {
        switch try SimSocket.connect(to: address, "connecting to \"\(address)\"") {
        case .success(let socket):
            return socket
        case .failure(let error) where error.code == ECONNREFUSED || error.code == ENOENT:
            return nil
        case .failure(let error) where error.code == EAGAIN:
            throw BLEError(.linkClosed,
                           "\"\(address)\" is advertised, but more than \(SimSocket.backlog) clients wait for it to take them")
        case .failure(let error):
            throw SystemCall.failure("connect", error.code, "connecting to \"\(address)\"")
        }
    }

    /// Tells every scanner listening now that `address` is advertised: one datagram each,
    /// sent without waiting; a scanner gone meanwhile is skipped.
    static func announce(_ address: String) {
        let bytes = Array(address.utf8)
        for scanner in listeningNames(under: namespace + SimScanner.namePrefix) {
            guard case .success(let socket)? = try? SimSocket.connect(to: scanner, "announcing \"\(address)\"") else { continue }
            _ = SystemCall.make { send(socket, bytes, bytes.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL)) }
            close(socket)
        }
    }

    /// The service names advertised over sim now, with their UUIDs: the listening abstract
    /// sockets named `mdoc-sim/<uuid>` after the namespace.
    static func advertisedNames() -> [(name: String, uuid: UUID)] {
        let prefix = namespace + "mdoc-sim/"
        return listeningNames(under: prefix).compactMap { name in
            UUID(uuidString: String(name.dropFirst(prefix.count))).map { (name, $0) }
        }
    }

    /// The whole of /proc/net/unix (unix(7)), nil when it cannot be read. Read to its end: the
    /// kernel makes it a page at a time, and a file API that trusts its size of 0 or reads once
    /// sees only the first page, about 55 sockets.
    static func socketTable() -> String? {
        let file = SystemCall.make { open("/proc/net/unix", O_RDONLY | O_CLOEXEC) }
        guard case .success(let descriptor) = file else { return nil }
        defer { close(descriptor) }
        guard case .success(let table) = SystemCall.readToEnd(descriptor, limit: nil) else { return nil }
        return String(decoding: table, as: UTF8.self)
    }

    /// The abstract names starting with `prefix` that sockets listen on now: the listeners of
    /// /proc/net/unix (unix(7)).
    static func listeningNames(under prefix: String) -> [String] {
        guard let table = socketTable() else { return [] }
        return table.split(separator: "\n").dropFirst().compactMap { line in
            // Num RefCount Protocol Flags Type St Inode Path; Flags 00010000 marks a listener,
            // and a Path starting with @ an abstract name.
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 8, fields[3] == "00010000", fields[7].hasPrefix("@" + prefix) else { return nil }
            return String(fields[7].dropFirst())
        }
    }
}
