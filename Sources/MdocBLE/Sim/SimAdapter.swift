#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The `sim` transport as a ``BLEAdapter``: advertising binds the abstract socket named after
/// the service UUID, connecting retries until it appears (``SimLink``), scanning lists the
/// bound names (docs/architecture.md section 4).
public final class SimAdapter: BLEAdapter {
    /// How often ``scan(for:)`` looks at the bound socket names.
    public static let scanInterval: Duration = .milliseconds(100)

    /// The sim adapter; all instances reach the same names.
    public init() {}

    public func advertise(serviceUUID: UUID) async throws(BLEError) -> any BLEAdvertisement {
        SimAdvertisement(try SimLink.advertise(serviceUUID: serviceUUID))
    }

    public func connect(serviceUUID: UUID, timeout: Duration) async throws(BLEError) -> any ATTBearer {
        try await SimLink.connect(serviceUUID: serviceUUID, timeout: timeout)
    }

    /// The services advertised over sim during `duration`: the listening abstract sockets
    /// named `mdoc-sim/<uuid>` (after `MDOC_SIM_NAMESPACE`) in /proc/net/unix.
    public func scan(for duration: Duration) async throws(BLEError) -> [BLEPeripheralSighting] {
        var found: [String: UUID] = [:]
        let deadline = ContinuousClock.now + duration
        repeat {
            for (name, uuid) in SimLink.advertisedNames() { found[name] = uuid }
            try? await Task.sleep(for: Self.scanInterval)
        } while ContinuousClock.now < deadline && !Task.isCancelled
        return found.sorted { $0.key < $1.key }.map { name, uuid in
            BLEPeripheralSighting(address: "sim:\(name)", rssi: nil, serviceUUIDs: [uuid], name: nil, isConnectable: true)
        }
    }

    /// Nothing to release: each sim link is closed by its bearer.
    public func close() async {}
}

/// A ``SimAdvertiser`` as a ``BLEAdvertisement``.
private final class SimAdvertisement: BLEAdvertisement {
    private let advertiser: SimAdvertiser

    init(_ advertiser: SimAdvertiser) {
        self.advertiser = advertiser
    }

    func accept(timeout: Duration) async throws(BLEError) -> any ATTBearer {
        try await advertiser.accept(timeout: timeout)
    }

    func stop() async {
        advertiser.stop()
    }
}
