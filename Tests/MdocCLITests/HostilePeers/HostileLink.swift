import Foundation
import MdocBLE

/// The bearer under ATT that a hostile peer in this test process shares with a program under
/// test.
///
/// Every fault the hostile peers inject (``ChunkFault``, a peer vanishing at a
/// ``ReaderPhase`` or ``HolderPhase``, a stalled peer) is made of ATT PDUs, so it applies
/// unchanged to any bearer: a new transport (such as `hci:tcp` with Bumble virtual controllers)
/// only implements these calls and names its `--transport` value.
protocol HostileLink: Sendable {
    /// The `--transport` value the program under test runs with.
    var transport: String { get }
    /// What the program under test needs in its environment to meet this process's peers.
    var environment: [String: String] { get }
    /// Connects, as the central, to the program advertising `serviceUUID`.
    func connect(serviceUUID: UUID, timeout: Duration) async throws -> any ATTBearer
    /// Advertises `serviceUUID` and returns the link of the first central that connects.
    func accept(serviceUUID: UUID, timeout: Duration) async throws -> any ATTBearer
}

/// The `sim` transport: Linux abstract SEQPACKET sockets named after the service UUID.
struct SimHostileLink: HostileLink {
    var transport: String { "sim" }

    /// The programs must look in this process's sim namespace (none unless the test run sets
    /// `MDOC_SIM_NAMESPACE`); the service UUIDs of each engagement are random, so tests running
    /// side by side do not meet.
    var environment: [String: String] {
        [SimLink.namespaceVariable: ProcessInfo.processInfo.environment[SimLink.namespaceVariable] ?? ""]
    }

    func connect(serviceUUID: UUID, timeout: Duration) async throws -> any ATTBearer {
        try await SimLink.connect(serviceUUID: serviceUUID, timeout: timeout)
    }

    func accept(serviceUUID: UUID, timeout: Duration) async throws -> any ATTBearer {
        let advertiser = try SimLink.advertise(serviceUUID: serviceUUID)
        defer { advertiser.stop() }
        return try await advertiser.accept(timeout: timeout)
    }
}
