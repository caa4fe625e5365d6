#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging

/// Where the link of an ISO/IEC 18013-5 BLE session comes from: either side, in either mode
/// (8.3.3.1.1.4, Table A.1), plus a scan for nearby mdocs.
///
/// Every ``BLEAdapter`` is a radio: it gives ATT bearers, over which ``MdocBLEConnector`` runs
/// the toolkit's own GATT server and client. `BlueZRadio` is the other kind: bluetoothd hosts
/// the GATT service and the toolkit talks to it over D-Bus.
public protocol MdocRadio: AnyObject, Sendable {
    /// The holder's side for the engagement's `serviceUUID` in `mode`: advertises and serves
    /// the service (peripheral server mode) or finds the reader's and checks its Ident against
    /// `ident` (central client mode). Throws `timeout` or `peerNotFound` when no reader came
    /// within `timeout`, measured on `clock`.
    func holderLink(mode: MdocBLEMode, serviceUUID: UUID, ident: [UInt8], timeout: Duration,
                    clock: any Clock<Duration>, logger: Logger) async throws(BLEError) -> any MdocTransport
    /// The reader's side for the engagement's `serviceUUID` in `mode`: finds the mdoc's service
    /// (peripheral server mode) or advertises and serves its own with Ident `ident` (central
    /// client mode). Throws `timeout` or `peerNotFound` when no mdoc came within `timeout`,
    /// measured on `clock`.
    func readerLink(mode: MdocBLEMode, serviceUUID: UUID, ident: [UInt8], timeout: Duration,
                    clock: any Clock<Duration>, logger: Logger) async throws(BLEError) -> any MdocTransport
    /// The peripherals that advertised a 128-bit service UUID during `duration`.
    func scan(for duration: Duration) async throws(BLEError) -> [BLEPeripheralSighting]
    /// Ends every link and releases the radio. Idempotent.
    func close() async
    /// Waits until the radio can make no more links (its controller or bus connection ended, or
    /// it was closed) and says why; returns at once when that happened already, and `nil` when
    /// the waiting task is cancelled first. The radio's health as an event: a holder that
    /// serves reader after reader waits for it beside its sessions, since a radio that is gone
    /// makes every later session fail at once.
    func failure() async -> BLEError?
}

extension MdocRadio {
    /// The holder's side, its `timeout` measured in real time.
    public func holderLink(mode: MdocBLEMode, serviceUUID: UUID, ident: [UInt8], timeout: Duration,
                           logger: Logger) async throws(BLEError) -> any MdocTransport {
        try await holderLink(mode: mode, serviceUUID: serviceUUID, ident: ident, timeout: timeout, clock: ContinuousClock(),
                             logger: logger)
    }

    /// The reader's side, its `timeout` measured in real time.
    public func readerLink(mode: MdocBLEMode, serviceUUID: UUID, ident: [UInt8], timeout: Duration,
                           logger: Logger) async throws(BLEError) -> any MdocTransport {
        try await readerLink(mode: mode, serviceUUID: serviceUUID, ident: ident, timeout: timeout, clock: ContinuousClock(),
                             logger: logger)
    }
}

extension BLEAdapter {
    /// ``MdocBLEConnector/holder(mode:serviceUUID:ident:timeout:clock:over:logger:)`` over this adapter.
    public func holderLink(mode: MdocBLEMode, serviceUUID: UUID, ident: [UInt8], timeout: Duration,
                           clock: any Clock<Duration>, logger: Logger) async throws(BLEError) -> any MdocTransport {
        try await MdocBLEConnector.holder(mode: mode, serviceUUID: serviceUUID, ident: ident, timeout: timeout,
                                          clock: clock, over: self, logger: logger)
    }

    /// ``MdocBLEConnector/reader(mode:serviceUUID:ident:timeout:clock:over:logger:)`` over this adapter.
    public func readerLink(mode: MdocBLEMode, serviceUUID: UUID, ident: [UInt8], timeout: Duration,
                           clock: any Clock<Duration>, logger: Logger) async throws(BLEError) -> any MdocTransport {
        try await MdocBLEConnector.reader(mode: mode, serviceUUID: serviceUUID, ident: ident, timeout: timeout,
                                          clock: clock, over: self, logger: logger)
    }
}
