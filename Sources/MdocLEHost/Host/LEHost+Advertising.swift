#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import MdocBLE
import NIOCore

/// Advertising an 18013-5 service and taking the central that connects (GAP peripheral,
/// Bluetooth Core Vol 3 Part C 9.3; HCI Core Vol 4 Part E 7.8.5–7.8.9).
extension LEHost {
    /// The one advertisement a legacy advertiser runs, and the links made to it.
    struct AdvertisingState {
        let identifier: Int
        let serviceUUID: UUID
        /// Whether the controller advertises: legacy advertising stops by itself once a
        /// central connected (Core Vol 6 Part B 4.4.2), and the host enables it again.
        var isEnabled = true
        /// How many links ended while advertising: a link ending while the controller refused
        /// to advertise (it was connected) is a reason to ask again.
        var linkEndings = 0
        /// Links made and not yet taken by ``LEHost/accept(_:timeout:)``, and the accepts
        /// waiting for one.
        let links: ReceiveQueue<LEATTBearer>

        /// A central connected: the waiting accept takes the link, else it is kept. Always
        /// wanted: the advertisement is the reason the central came.
        mutating func connected(_ bearer: LEATTBearer) -> Bool {
            isEnabled = false
            links.append(bearer)
            return true
        }

        /// The host stopped: the waiting accept fails.
        func fail(_ error: BLEError) {
            links.fail(error)
        }
    }

    /// Advertises `serviceUUID` (ADV_IND with Flags and the complete list of 128-bit service
    /// UUIDs, ISO/IEC 18013-5 Table A.1) until the advertisement is stopped: the controller stops
    /// advertising when a central connects, and the host enables it again at once, or when the
    /// link ends if the controller cannot advertise while connected, so centrals that connect
    /// and leave do not hide the service from the next. One advertisement at a time.
    public func advertise(serviceUUID: UUID) async throws(BLEError) -> any BLEAdvertisement {
        try checkRunning()
        if let current = advertising {
            throw BLEError(.controllerError,
                           "this host advertises one service at a time and already advertises \(current.serviceUUID)")
        }
        let identifier = nextIdentifier()
        advertising = AdvertisingState(identifier: identifier, serviceUUID: serviceUUID,
                                       links: ReceiveQueue(on: eventLoop, limit: LEATTBearer.receiveQueueLimit,
                                                           itemName: "links to the advertisement"))
        do {
            _ = try await execute(.leSetAdvertisingParameters(
                intervalMin: Self.advertisingInterval.min, intervalMax: Self.advertisingInterval.max,
                ownAddressType: ownAddressType))
            if let data = HCICommand.leSetAdvertisingData(.advertising(serviceUUID: serviceUUID)) {
                _ = try await execute(data)
            }
            _ = try await execute(.leSetAdvertisingEnable(true))
        } catch {
            if advertising?.identifier == identifier { advertising = nil }
            throw error
        }
        logger.debug("advertising", metadata: ["service": "\(serviceUUID)", "address": "\(controller?.address.description ?? "?")"])
        return LEAdvertisement(host: self, identifier: identifier, serviceUUID: serviceUUID)
    }

    /// Waits up to `timeout` for a central to connect to advertisement `identifier`.
    func accept(_ identifier: Int, timeout: Duration) async throws(BLEError) -> any ATTBearer {
        try checkRunning()
        guard let advertising, advertising.identifier == identifier else {
            throw BLEError(.linkClosed, "advertising has stopped")
        }
        let uuid = advertising.serviceUUID
        let bearer = try await ReceiveQueue.next(
            from: NIOLoopBound(advertising.links, eventLoop: eventLoop), timeout: timeout,
            timedOut: { BLEError(.timeout, "no central connected to the advertisement of \(uuid) within \(timeout)") },
            cancelled: { BLEError(.timeout, "waiting for a central to connect to \(uuid) was cancelled") })
        guard let bearer else { throw BLEError(.linkClosed, "advertising has stopped") }
        return bearer
    }

    /// Enables advertising again for advertisement `identifier` after a connection stopped it
    /// (Core Vol 4 Part E 7.8.9). A controller that refuses while connected (Command
    /// Disallowed) is asked again when a link ends.
    func resumeAdvertising(_ identifier: Int) {
        guard var state = advertising, state.identifier == identifier, !state.isEnabled, failure == nil else { return }
        // Marked first: a stop arriving while the command runs then disables it after.
        state.isEnabled = true
        advertising = state
        let (endings, serviceUUID) = (state.linkEndings, state.serviceUUID)
        after(issue(.leSetAdvertisingEnable(true))) { host, outcome in
            if Self.succeeded(outcome) {
                host.logger.debug("advertising again", metadata: ["service": "\(serviceUUID)"])
                return
            }
            guard host.advertising?.identifier == identifier else { return }
            host.advertising?.isEnabled = false
            if host.advertising?.linkEndings != endings {
                // A link ended while the controller refused: it may advertise now.
                host.resumeAdvertising(identifier)
            } else {
                host.logger.debug("the controller does not advertise while connected; advertising again when a link ends")
            }
        }
    }

    /// Stops advertisement `identifier`: the controller stops advertising when it still does,
    /// and links made to it that nobody took are ended.
    func stopAdvertising(_ identifier: Int) async {
        guard let state = advertising, state.identifier == identifier else { return }
        advertising = nil
        let untaken = state.links.removeAll()
        state.links.finish()
        if state.isEnabled, failure == nil {
            _ = try? await execute(.leSetAdvertisingEnable(false))
            logger.debug("advertising stopped", metadata: ["service": "\(state.serviceUUID)"])
        }
        for bearer in untaken { try? await disconnect(bearer.handle).get() }
    }
}

/// An advertisement of an ``LEHost``.
final class LEAdvertisement: BLEAdvertisement {
    private let host: LEHost
    private let identifier: Int
    /// The service UUID advertised.
    let serviceUUID: UUID

    init(host: LEHost, identifier: Int, serviceUUID: UUID) {
        self.host = host
        self.identifier = identifier
        self.serviceUUID = serviceUUID
    }

    func accept(timeout: Duration) async throws(BLEError) -> any ATTBearer {
        try await host.accept(identifier, timeout: timeout)
    }

    func stop() async {
        await host.stopAdvertising(identifier)
    }
}
