import Foundation
import MdocBLE
import MdocLEHost
import MdocSim
import MdocTestSupport

/// The bearer under ATT that a hostile peer in this test process shares with a program or a
/// session driver under test.
///
/// Every fault the hostile peers inject (``ChunkFault``, a peer vanishing at a
/// ``ReaderPhase`` or ``HolderPhase``, a stalled peer) is made of ATT PDUs, so it applies
/// unchanged to any bearer: a new transport (such as `hci:tcp` with Bumble virtual controllers)
/// only implements these calls and names its `--transport` value.
package protocol HostileLink: Sendable {
    /// The `--transport` value the program under test runs with.
    var transport: String { get }
    /// The `--transport` value of a second, well-behaved program meeting the first one.
    var otherTransport: String { get }
    /// What the program under test needs in its environment to meet this process's peers.
    var environment: [String: String] { get }
    /// Connects, as the central, to the program advertising `serviceUUID`.
    func connect(serviceUUID: UUID, timeout: Duration) async throws -> any ATTBearer
    /// Advertises `serviceUUID` and returns the link of the first central that connects.
    func accept(serviceUUID: UUID, timeout: Duration) async throws -> any ATTBearer
    /// A radio for a well-behaved peer in this process, on the bearer of ``otherTransport``
    /// (the toolkit's own 18013-5 connector runs over it); the caller closes it.
    func openOtherRadio() async throws -> any BLEAdapter
    /// A radio for the side under test when it runs in this process, on the bearer of
    /// ``transport``; the caller closes it.
    func openRadio() async throws -> any BLEAdapter
}

/// The `sim` transport: Linux abstract SEQPACKET sockets named after the service UUID.
package struct SimHostileLink: HostileLink {
    /// The sim link of this process.
    package init() {}

    package var transport: String { "sim" }
    package var otherTransport: String { "sim" }

    /// The programs must look in this process's sim namespace (none unless the test run sets
    /// `MDOC_SIM_NAMESPACE`); the service UUIDs of each engagement are random, so tests running
    /// side by side do not meet.
    package var environment: [String: String] {
        [SimLink.namespaceVariable: ProcessInfo.processInfo.environment[SimLink.namespaceVariable] ?? ""]
    }

    package func connect(serviceUUID: UUID, timeout: Duration) async throws -> any ATTBearer {
        try await SimLink.connect(serviceUUID: serviceUUID, timeout: timeout)
    }

    package func accept(serviceUUID: UUID, timeout: Duration) async throws -> any ATTBearer {
        let advertiser = try SimLink.advertise(serviceUUID: serviceUUID)
        // One link: the name is released before the link is handed over, so a peer connecting
        // again meets nobody rather than a listener about to close.
        do {
            let bearer = try await advertiser.accept(timeout: timeout)
            await advertiser.stopAndRelease()
            return bearer
        } catch {
            await advertiser.stopAndRelease()
            throw error
        }
    }

    package func openOtherRadio() async throws -> any BLEAdapter {
        SimAdapter()
    }

    package func openRadio() async throws -> any BLEAdapter {
        SimAdapter()
    }
}

/// Real (virtual) Bluetooth LE: three linked Bumble controllers; the program under test drives
/// the first through `hci:tcp`, this process's hostile peer the second through an ``LEHost``,
/// and a second program the third.
package final class HCIHostileLink: HostileLink {
    private let controllers: VirtualControllers
    private let host: LEHost

    /// Starts the controllers and the peer's host.
    package static func make() async throws -> HCIHostileLink {
        let controllers = try await VirtualControllers.start(count: 3, checkout: Vectors.repositoryRoot)
        let host = try await LEHost.open(.tcp(host: "127.0.0.1", port: UInt16(controllers.ports[1])))
        return HCIHostileLink(controllers: controllers, host: host)
    }

    private init(controllers: VirtualControllers, host: LEHost) {
        self.controllers = controllers
        self.host = host
    }

    deinit {
        controllers.stop()
    }

    package var transport: String { controllers.transport(0) }
    package var otherTransport: String { controllers.transport(2) }
    package var environment: [String: String] { [:] }

    package func openOtherRadio() async throws -> any BLEAdapter {
        try await LEHost.open(.tcp(host: "127.0.0.1", port: UInt16(controllers.ports[2])))
    }

    package func openRadio() async throws -> any BLEAdapter {
        try await LEHost.open(.tcp(host: "127.0.0.1", port: UInt16(controllers.ports[0])))
    }

    package func connect(serviceUUID: UUID, timeout: Duration) async throws -> any ATTBearer {
        try await host.connect(serviceUUID: serviceUUID, timeout: timeout)
    }

    package func accept(serviceUUID: UUID, timeout: Duration) async throws -> any ATTBearer {
        let advertisement = try await host.advertise(serviceUUID: serviceUUID)
        do {
            let bearer = try await advertisement.accept(timeout: timeout)
            await advertisement.stop()
            return bearer
        } catch {
            await advertisement.stop()
            throw error
        }
    }
}

/// The bearers the link-fault tests run over.
package enum LinkKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case sim
    /// `hci:tcp` through Bumble virtual controllers.
    case hci

    package var description: String { rawValue }

    /// A fresh link of this kind.
    package func make() async throws -> any HostileLink {
        switch self {
        case .sim: return SimHostileLink()
        case .hci: return try await HCIHostileLink.make()
        }
    }
}
