import Logging
import MdocBLE
import MdocCBOR

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A radio held in memory, for whole sessions in one process: a holder and a reader given the
/// same instance meet on the engagement's service UUID as they would over BLE (ISO/IEC 18013-5
/// 8.3.3.1.1.4), and talk over a pair of ``InMemoryTransport``s.
///
/// The side that is the GATT server in the mode (the holder in peripheral server mode, the
/// reader in central client mode) advertises the service until a peer connects, and then stops:
/// a later peer finds nothing, as with an mdoc that is in a session. A second server advertising
/// the same service fails with `serviceInUse`. In central client mode the holder checks the
/// reader's Ident and fails with `identMismatch` when it differs, while the reader goes on
/// advertising.
public actor InMemoryRadio: MdocRadio {
    private typealias Waiter = CheckedContinuation<Result<any MdocTransport, BLEError>, Never>

    /// A GATT server waiting for its client.
    private struct Advertisement {
        let id: UUID
        let mode: MdocBLEMode
        let ident: [UInt8]
        let waiter: Waiter
    }

    /// A GATT client waiting for the server.
    private struct Search {
        let id: UUID
        let mode: MdocBLEMode
        let expectedIdent: [UInt8]?
        let waiter: Waiter
    }

    private var advertisements: [UUID: Advertisement] = [:]
    private var searches: [UUID: [Search]] = [:]
    /// The links made and not yet closed, for ``close()`` to close; those closed are dropped
    /// whenever a new pair is made, so that a radio serving session after session holds only
    /// the links still open.
    private var links: [InMemoryTransport] = []

    /// How many links the radio keeps, for tests that it lets closed ones go.
    var keptLinkCount: Int { links.count }

    /// Waits withdrawn before they began (their time ran out first), with the error they end
    /// with when they begin.
    private var withdrawn: [UUID: BLEError] = [:]
    private var isClosed = false
    /// Fires when the radio is closed.
    private nonisolated let closing = RadioFailureSignal()
    /// A radio on which nobody advertises yet.
    public init() {}

    /// The holder's side: advertises `serviceUUID` in peripheral server mode, or looks for the
    /// reader's and checks its Ident against `ident` in central client mode.
    public func holderLink(mode: MdocBLEMode, serviceUUID: UUID, ident: [UInt8], timeout: Duration,
                           clock: any Clock<Duration>, logger: Logger) async throws(BLEError) -> any MdocTransport {
        switch mode {
        case .peripheralServer:
            return try await advertise(serviceUUID, mode: mode, ident: [], timeout: timeout, clock: clock)
        case .centralClient:
            return try await connect(serviceUUID, mode: mode, expectedIdent: ident, timeout: timeout, clock: clock)
        }
    }

    /// The reader's side: looks for the mdoc's `serviceUUID` in peripheral server mode, or
    /// advertises it serving `ident` in central client mode.
    public func readerLink(mode: MdocBLEMode, serviceUUID: UUID, ident: [UInt8], timeout: Duration,
                           clock: any Clock<Duration>, logger: Logger) async throws(BLEError) -> any MdocTransport {
        switch mode {
        case .peripheralServer:
            return try await connect(serviceUUID, mode: mode, expectedIdent: nil, timeout: timeout, clock: clock)
        case .centralClient:
            return try await advertise(serviceUUID, mode: mode, ident: ident, timeout: timeout, clock: clock)
        }
    }

    /// The services advertised now; `duration` is not waited for.
    public func scan(for duration: Duration) async throws(BLEError) -> [BLEPeripheralSighting] {
        advertisements.keys.sorted { $0.uuidString < $1.uuidString }.map { uuid in
            BLEPeripheralSighting(address: "memory:\(uuid)", rssi: nil, serviceUUIDs: [uuid], name: nil, isConnectable: true)
        }
    }

    /// Fails every wait with `linkClosed` and closes every link made. Idempotent.
    /// `linkClosed` once the radio is closed (``close()``).
    public nonisolated func failure() async -> BLEError? {
        await closing.failure()
    }

    public func close() async {
        isClosed = true
        closing.fail(BLEError(.linkClosed, "the radio was closed"))
        for advertisement in advertisements.values {
            advertisement.waiter.resume(returning: .failure(BLEError(.linkClosed, "the radio was closed")))
        }
        for search in searches.values.joined() {
            search.waiter.resume(returning: .failure(BLEError(.linkClosed, "the radio was closed")))
        }
        advertisements = [:]
        searches = [:]
        for link in links { link.close() }
        links = []
    }

    // MARK: - Meeting

    private func advertise(_ uuid: UUID, mode: MdocBLEMode, ident: [UInt8], timeout: Duration,
                           clock: any Clock<Duration>) async throws(BLEError) -> any MdocTransport {
        let id = UUID()
        return try await bounded(id: id, timeout: timeout, clock: clock, expiry: BLEError(.timeout, "no central connected to \(uuid) within \(timeout)")) {
            await self.awaitClient(uuid, id: id, mode: mode, ident: ident)
        }.get()
    }

    private func connect(_ uuid: UUID, mode: MdocBLEMode, expectedIdent: [UInt8]?, timeout: Duration,
                         clock: any Clock<Duration>) async throws(BLEError) -> any MdocTransport {
        let id = UUID()
        return try await bounded(id: id, timeout: timeout, clock: clock, expiry: BLEError(.peerNotFound, "nobody advertised \(uuid) within \(timeout)")) {
            await self.awaitServer(uuid, id: id, mode: mode, expectedIdent: expectedIdent)
        }.get()
    }

    /// Advertises `uuid` until a client comes; fails at once when another server advertises it.
    private func awaitClient(_ uuid: UUID, id: UUID, mode: MdocBLEMode, ident: [UInt8]) async -> Result<any MdocTransport, BLEError> {
        await withCheckedContinuation { (waiter: Waiter) in
            if let error = unwaited(id) {
                waiter.resume(returning: .failure(error))
                return
            }
            // Checked where the advertisement is made, on the actor: two servers that start at
            // once cannot both pass the check.
            guard advertisements[uuid] == nil else {
                waiter.resume(returning: .failure(BLEError(.serviceInUse, "another peer advertises \(uuid) already")))
                return
            }
            advertisements[uuid] = Advertisement(id: id, mode: mode, ident: ident, waiter: waiter)
            meet(uuid)
        }
    }

    /// Looks for `uuid` until its server advertises it.
    private func awaitServer(_ uuid: UUID, id: UUID, mode: MdocBLEMode, expectedIdent: [UInt8]?) async -> Result<any MdocTransport, BLEError> {
        await withCheckedContinuation { (waiter: Waiter) in
            if let error = unwaited(id) {
                waiter.resume(returning: .failure(error))
                return
            }
            searches[uuid, default: []].append(Search(id: id, mode: mode, expectedIdent: expectedIdent, waiter: waiter))
            meet(uuid)
        }
    }

    /// Why the wait of `id` ends before it begins: the radio was closed, or its time ran out.
    private func unwaited(_ id: UUID) -> BLEError? {
        if let error = withdrawn.removeValue(forKey: id) { return error }
        return isClosed ? BLEError(.linkClosed, "the radio was closed") : nil
    }

    /// Connects the first client looking for `uuid` with its advertiser, if both are there.
    private func meet(_ uuid: UUID) {
        guard let advertisement = advertisements[uuid], var waiting = searches[uuid], !waiting.isEmpty else { return }
        let search = waiting.removeFirst()
        searches[uuid] = waiting.isEmpty ? nil : waiting
        guard search.mode == advertisement.mode else {
            search.waiter.resume(returning: .failure(BLEError(.serviceNotFound, "\(uuid) is served in another mode")))
            return
        }
        if let expected = search.expectedIdent, expected != advertisement.ident {
            // The holder leaves a reader whose Ident is not the engagement's; the reader goes on
            // advertising (8.3.3.1.1.4).
            search.waiter.resume(returning: .failure(BLEError(
                .identMismatch, "the reader's Ident \(Hex.encode(advertisement.ident)) differs from \(Hex.encode(expected)), derived from EDeviceKeyBytes: it is not the reader this engagement was shown to")))
            return
        }
        advertisements[uuid] = nil
        let (server, client) = InMemoryTransport.pair(mode: advertisement.mode)
        links.removeAll { $0.isClosed }
        links += [server, client]
        advertisement.waiter.resume(returning: .success(server))
        search.waiter.resume(returning: .success(client))
    }

    /// Runs `wait` against `timeout`; when the time runs out first the wait of `id` is withdrawn
    /// with `expiry`, unless it was met meanwhile.
    private func bounded(
        id: UUID, timeout: Duration, clock: any Clock<Duration>, expiry: BLEError,
        _ wait: @escaping @Sendable () async -> Result<any MdocTransport, BLEError>
    ) async -> Result<any MdocTransport, BLEError> {
        await withTaskGroup(of: Result<any MdocTransport, BLEError>?.self) { group in
            group.addTask { await wait() }
            group.addTask {
                try? await clock.sleep(for: timeout)
                return nil
            }
            if let met = await group.next() ?? nil {
                group.cancelAll()
                return met
            }
            withdraw(id, expiry)
            var result: Result<any MdocTransport, BLEError> = .failure(expiry)
            while let next = await group.next() {
                if let next { result = next }
            }
            withdrawn[id] = nil
            return result
        }
    }

    /// Ends the wait of `id` with `error`: now if it waits, as soon as it begins if it has not
    /// begun yet (``bounded(id:timeout:clock:expiry:_:)`` forgets it once the wait is over).
    private func withdraw(_ id: UUID, _ error: BLEError) {
        if let (uuid, advertisement) = advertisements.first(where: { $0.value.id == id }) {
            advertisements[uuid] = nil
            advertisement.waiter.resume(returning: .failure(error))
            return
        }
        for (uuid, waiting) in searches {
            guard let index = waiting.firstIndex(where: { $0.id == id }) else { continue }
            var remaining = waiting
            let search = remaining.remove(at: index)
            searches[uuid] = remaining.isEmpty ? nil : remaining
            search.waiter.resume(returning: .failure(error))
            return
        }
        withdrawn[id] = error
    }
}
