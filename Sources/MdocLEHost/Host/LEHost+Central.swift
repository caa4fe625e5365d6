#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import MdocBLE
import NIOCore

/// Scanning for an 18013-5 service and connecting to it (GAP central, Bluetooth Core Vol 3
/// Part C 9.3; HCI Core Vol 4 Part E 7.8.10–7.8.13).
extension LEHost {
    /// Scans for a connectable peripheral advertising `serviceUUID` and connects to it: LE
    /// Create Connection, cancelled when `timeout` runs out (ISO/IEC 18013-5 8.3.3.1.1.4).
    public func connect(serviceUUID: UUID, timeout: Duration) async throws(BLEError) -> any ATTBearer {
        let deadline = ContinuousClock.now + timeout
        let report = try await findPeripheral(serviceUUID, until: deadline, timeout: timeout)
        logger.debug("found the service", metadata: [
            "service": "\(serviceUUID)", "peer": "\(report.address)", "rssi": "\(report.rssi.map(String.init) ?? "?")",
        ])
        // A peripheral just found gets at least a second to take the connection.
        let remaining = max(deadline - ContinuousClock.now, .seconds(1))
        return try await createConnection(to: report.address, timeout: remaining)
    }

    /// The peripherals that advertised a 128-bit service UUID while scanning for `duration`,
    /// strongest first.
    public func scan(for duration: Duration) async throws(BLEError) -> [BLEPeripheralSighting] {
        let sightings = Sightings()
        let consumer = try await addScanConsumer { report in
            guard let data = try? AdvertisingData(bytes: report.data), !data.serviceUUIDs.isEmpty else { return }
            let earlier = sightings.seen[report.address]
            sightings.seen[report.address] = BLEPeripheralSighting(
                address: report.address.description,
                rssi: [earlier?.rssi, report.rssi].compactMap { $0 }.max(),
                serviceUUIDs: Array(Set((earlier?.serviceUUIDs ?? []) + data.serviceUUIDs)).sorted { $0.uuidString < $1.uuidString },
                name: data.localName ?? earlier?.name,
                isConnectable: report.isConnectable || earlier?.isConnectable == true)
        }
        // The scan window the caller asked for.
        try? await Task.sleep(for: duration)
        await removeScanConsumer(consumer)
        return sightings.seen.values.sorted { ($0.rssi ?? .min) > ($1.rssi ?? .min) }
    }

    /// What a scan saw, by address; filled on the host's event loop.
    private final class Sightings {
        var seen: [BluetoothAddress: BLEPeripheralSighting] = [:]
    }

    /// Waits for a connectable advertisement of `serviceUUID` until `deadline`.
    private func findPeripheral(_ serviceUUID: UUID, until deadline: ContinuousClock.Instant,
                                timeout: Duration) async throws(BLEError) -> LEAdvertisingReport {
        let promise = eventLoop.makePromise(of: LEAdvertisingReport.self)
        promise.fail(after: deadline - ContinuousClock.now) {
            BLEError(.peerNotFound, "nobody advertised \(serviceUUID) within \(timeout)")
        }
        let consumer: Int
        do {
            consumer = try await addScanConsumer(ended: { promise.fail($0) }) { report in
                guard report.isConnectable, let data = try? AdvertisingData(bytes: report.data),
                      data.serviceUUIDs.contains(serviceUUID) else { return }
                promise.succeed(report)
            }
        } catch {
            promise.fail(error)
            throw error
        }
        let result: Result<LEAdvertisingReport, BLEError>
        do throws(BLEError) {
            result = .success(try await promise.value(cancelled: {
                BLEError(.peerNotFound, "scanning for \(serviceUUID) was cancelled")
            }))
        } catch {
            result = .failure(error)
        }
        await removeScanConsumer(consumer)
        return try result.get()
    }

    /// LE Create Connection to `peer`; after `timeout` the attempt is cancelled (LE Create
    /// Connection Cancel) and a link made meanwhile is ended.
    private func createConnection(to peer: BluetoothAddress, timeout: Duration) async throws(BLEError) -> any ATTBearer {
        try checkRunning()
        guard pendingConnection == nil else {
            throw BLEError(.controllerError, "another connection attempt is in progress on this controller")
        }
        let promise = eventLoop.makePromise(of: LEConnectionComplete.self)
        pendingConnection = (peer, promise)
        do {
            try await executeAccepted(.leCreateConnection(to: peer, ownAddressType: ownAddressType, parameters: .mdocSession))
        } catch {
            if pendingConnection?.promise.futureResult === promise.futureResult { pendingConnection = nil }
            throw error
        }
        let result = await attemptResult(
            promise, timeout: timeout,
            timedOut: { BLEError(.timeout, "\(peer) did not take the connection within \(timeout)") },
            cancelled: { BLEError(.timeout, "connecting to \(peer) was cancelled") })
        if case .failure = result, failure == nil {
            await cancelConnection(to: peer)
        }
        let complete = try result.get()
        guard complete.status == .success else {
            throw BLEError(.peerNotFound, "connecting to \(peer) failed: \(complete.status)")
        }
        guard let link = links[complete.handle] else {
            throw BLEError(.linkClosed, "the link to \(peer) ended as soon as it was made")
        }
        return link.bearer
    }

    /// LE Create Connection Cancel, then waits up to ``cancelTimeout`` for the attempt's end;
    /// a connection made meanwhile is ended.
    private func cancelConnection(to peer: BluetoothAddress) async {
        let end = eventLoop.makePromise(of: LEConnectionComplete.self)
        pendingConnection = (peer, end)
        _ = try? await execute(.leCreateConnectionCancel)
        let outcome = await attemptResult(end, timeout: Self.cancelTimeout,
                                          timedOut: { BLEError(.timeout, "LE Create Connection Cancel had no end") },
                                          cancelled: nil)
        if case .success(let complete) = outcome, complete.status == .success {
            try? await disconnect(complete.handle).get()
        }
    }

    /// The end of the connection attempt whose outcome `promise` (the pending connection's)
    /// completes: its LE Connection Complete, or `timedOut()` after `timeout`, or `cancelled()`
    /// when the waiting task is cancelled (with nil, cancellation does not end the wait). Once
    /// it ended the attempt is no longer pending, so a connection completing later is unwanted.
    private func attemptResult(
        _ promise: EventLoopPromise<LEConnectionComplete>, timeout: Duration, timedOut: @escaping @Sendable () -> BLEError,
        cancelled: (@Sendable () -> BLEError)?
    ) async -> Result<LEConnectionComplete, BLEError> {
        let future = promise.futureResult
        let timer = eventLoop.scheduleTask(in: TimeAmount(timeout)) { [weak self] () -> Void in
            self?.assumeIsolated { $0.attemptEnded(future, timedOut()) }
        }
        defer { timer.cancel() }
        return await withTaskCancellationHandler {
            do throws(BLEError) {
                return .success(try await future.bleValue())
            } catch {
                return .failure(error)
            }
        } onCancel: {
            guard let cancelled else { return }
            self.eventLoop.execute { [weak self] in
                self?.assumeIsolated { $0.attemptEnded(future, cancelled()) }
            }
        }
    }

    /// The connection attempt whose outcome is `future` ended with `error`, unless it ended before.
    private func attemptEnded(_ future: EventLoopFuture<LEConnectionComplete>, _ error: BLEError) {
        guard let pending = pendingConnection, pending.promise.futureResult === future else { return }
        pendingConnection = nil
        pending.promise.fail(error)
    }

    /// Adds a receiver of advertising reports, starting scanning for the first; `ended` is
    /// called if the host stops meanwhile.
    func addScanConsumer(
        ended: @escaping (BLEError) -> Void = { _ in }, _ consumer: @escaping (LEAdvertisingReport) -> Void
    ) async throws(BLEError) -> Int {
        try checkRunning()
        let identifier = nextIdentifier()
        scanConsumers[identifier] = (consumer, ended)
        if !isScanning {
            isScanning = true
            do {
                _ = try await execute(.leSetScanParameters(interval: Self.scanInterval.interval, window: Self.scanInterval.window,
                                                           ownAddressType: ownAddressType))
                _ = try await execute(.leSetScanEnable(true))
                logger.debug("scanning")
            } catch {
                isScanning = false
                scanConsumers[identifier] = nil
                throw error
            }
        }
        return identifier
    }

    /// Removes a receiver of advertising reports, stopping scanning after the last.
    func removeScanConsumer(_ identifier: Int) async {
        scanConsumers[identifier] = nil
        guard scanConsumers.isEmpty, isScanning, failure == nil else { return }
        isScanning = false
        _ = try? await execute(.leSetScanEnable(false))
        logger.debug("scanning stopped")
    }
}
