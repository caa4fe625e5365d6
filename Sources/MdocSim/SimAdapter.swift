import MdocBLE
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The `sim` transport as a `BLEAdapter`: advertising binds the abstract socket named after
/// the service UUID, connecting waits until it is bound (``SimLink``), scanning lists the
/// bound names and the ones announced while it listens (docs/architecture.md section 4).
public final class SimAdapter: BLEAdapter {
    /// The sim adapter; all instances reach the same names.
    public init() {}

    public func advertise(serviceUUID: UUID) async throws(BLEError) -> any BLEAdvertisement {
        SimAdvertisement(try SimLink.advertise(serviceUUID: serviceUUID))
    }

    public func connect(serviceUUID: UUID, timeout: Duration) async throws(BLEError) -> any ATTBearer {
        try await SimLink.connect(serviceUUID: serviceUUID, timeout: timeout)
    }

    /// The services advertised over sim during `duration`: the listening abstract sockets named
    /// `mdoc-sim/<uuid>` (after `MDOC_SIM_NAMESPACE`) when the scan starts and ends, and those
    /// announced in between.
    public func scan(for duration: Duration) async throws(BLEError) -> [BLEPeripheralSighting] {
        try await scan(for: duration, listening: {})
    }

    /// ``scan(for:)``; `listening` is called once the scanner listens for announcements.
    func scan(for duration: Duration, listening: @Sendable () -> Void) async throws(BLEError) -> [BLEPeripheralSighting] {
        let deadline = ContinuousClock.now + duration
        var found: [String: UUID] = [:]
        for (name, uuid) in SimLink.advertisedNames() { found[name] = uuid }
        let scanner = try SimScanner()
        defer { scanner.stop() }
        listening()
        let prefix = SimLink.namespace + "mdoc-sim/"
        while let name = try? await scanner.nextAnnouncement(until: deadline, notFound: { "the scan ended" }) {
            if name.hasPrefix(prefix), let uuid = UUID(uuidString: String(name.dropFirst(prefix.count))) { found[name] = uuid }
        }
        for (name, uuid) in SimLink.advertisedNames() { found[name] = uuid }
        return found.sorted { $0.key < $1.key }.map { name, uuid in
            BLEPeripheralSighting(address: "sim:\(name)", rssi: nil, serviceUUIDs: [uuid], name: nil, isConnectable: true)
        }
    }

    /// Nothing to release: each sim link is closed by its bearer.
    public func close() async {}

    /// Never returns a failure: the sim transport holds no connection between links, each link
    /// opens its own socket; `nil` once the waiting task is cancelled.
    public func failure() async -> BLEError? {
        await RadioFailureSignal().failure()
    }
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
        await advertiser.stopAndRelease()
    }
}
