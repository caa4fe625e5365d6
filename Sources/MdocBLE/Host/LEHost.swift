#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging

/// A user-space Bluetooth LE host: it drives a controller over an ``HCITransport`` and gives
/// each LE link's ATT channel to the 18013-5 GATT service above (docs/architecture.md section 4).
///
/// What it does (Bluetooth Core Vol 4 Part E unless noted):
/// - initialises the controller: Reset, event masks, buffer sizes, address (a static random
///   address when the controller has no public one), data length;
/// - runs one command at a time, matched with its Command Complete or Command Status, within
///   ``commandTimeout`` (4.4, 7.7.14, 7.7.15);
/// - advertises a service UUID (legacy ADV_IND), scans for one (legacy and extended reports),
///   connects with a timeout and cancel (7.8.5–7.8.13);
/// - sends L2CAP frames cut to the controller's ACL packet length, never more packets than it
///   has buffers, with buffers back on Number Of Completed Packets (4.1.1, 5.4.2);
/// - reassembles the controller's ACL packets into L2CAP basic frames on CIDs 4 (ATT), 5 (LE
///   signalling: answered or rejected) and 6 (SMP: "Pairing Not Supported") (Core Vol 3 Part A);
/// - ends links on request or when the peer or the controller does.
///
/// Events are handled without waiting on the controller, so a reaction that needs a command
/// (disconnecting an unwanted link, a connection update) runs in its own task.
public actor LEHost: BLEAdapter {
    /// How long the controller may take to answer a command before the host gives up on it,
    /// unless a host is made with another ``commandTimeout``.
    public static let defaultCommandTimeout: Duration = .seconds(5)
    /// How long a Disconnect may take to complete before the link is treated as gone.
    public static let disconnectTimeout: Duration = .seconds(2)
    /// How long queued data may take to leave the controller before a local disconnect.
    public static let drainTimeout: Duration = .seconds(1)
    /// How long the controller may take, after LE Create Connection Cancel, to report the end
    /// of the attempt (Unknown Connection Identifier, or a connection made meanwhile).
    public static let cancelTimeout: Duration = .seconds(2)
    /// The advertising interval range, 30 to 60 ms (units of 0.625 ms): a holder should be
    /// found at once.
    public static let advertisingInterval: (min: UInt16, max: UInt16) = (0x0030, 0x0060)
    /// The scan interval and window, 30 ms each (units of 0.625 ms): continuous scanning.
    public static let scanInterval: (interval: UInt16, window: UInt16) = (0x0030, 0x0030)
    /// Events enabled by Set Event Mask (7.3.1): Disconnection Complete (bit 4), Encryption
    /// Change (7), Hardware Error (15), Data Buffer Overflow (25), Encryption Key Refresh
    /// Complete (47) and LE Meta (61).
    static let eventMask: UInt64 = 1 << 4 | 1 << 7 | 1 << 15 | 1 << 25 | 1 << 47 | 1 << 61
    /// LE subevents enabled by LE Set Event Mask (7.8.1): Connection Complete (bit 0),
    /// Advertising Report (1), Connection Update Complete (2), Data Length Change (6),
    /// Enhanced Connection Complete (9) and Extended Advertising Report (12).
    static let leEventMask: UInt64 = 1 << 0 | 1 << 1 | 1 << 2 | 1 << 6 | 1 << 9 | 1 << 12

    /// The link to the controller.
    public nonisolated let transport: HCITransport
    /// How long the controller may take to answer a command before the host gives up on it
    /// and stops (a controller that does not answer is out of step or gone).
    public nonisolated let commandTimeout: Duration
    nonisolated let logger: Logger
    /// What the controller reported during ``start()``; nil before.
    public private(set) var controller: ControllerInfo?
    /// Counters of what crossed the controller interface.
    public internal(set) var statistics = LEHostStatistics()

    /// The address type this host advertises, scans and connects with.
    var ownAddressType: BluetoothAddress.AddressType = .public
    /// The controller's command credits (Num_HCI_Command_Packets).
    private var commandCredits = 1
    private var pendingCommand: (opcode: HCIOpcode, promise: Promise<CommandOutcome>)?
    private var commandWaiters: [CheckedContinuation<Void, Never>] = []
    var flow = ACLFlowControl(bufferCount: 1)
    var aclDataLength = 27
    var outgoing: [OutgoingFrame] = []
    var links: [UInt16: LinkState] = [:]
    var advertising: AdvertisingState?
    var scanConsumers: [Int: @Sendable (LEAdvertisingReport) -> Void] = [:]
    var isScanning = false
    var pendingConnection: (peer: BluetoothAddress, promise: Promise<LEConnectionComplete>)?
    var disconnections: [UInt16: Promise<HCIStatus>] = [:]
    /// Why the host stopped working (transport closed, controller failed); every operation
    /// then fails with it.
    var failure: BLEError?
    private var lastIdentifier = 0

    /// A host over `transport`; call ``start()`` before anything else, ``close()`` at the end.
    public init(transport: HCITransport, commandTimeout: Duration = LEHost.defaultCommandTimeout,
                logger: Logger = Logger(label: "mdoc.hci")) {
        self.transport = transport
        self.commandTimeout = commandTimeout
        self.logger = logger
        Task { [weak self, transport] in
            while true {
                let received: Result<HCIPacket?, BLEError>
                do throws(BLEError) {
                    received = .success(try await transport.receive())
                } catch {
                    received = .failure(error)
                }
                guard let host = self else { return }
                switch received {
                case .success(let packet?):
                    await host.handle(packet)
                case .success(nil):
                    await host.fail(BLEError(.linkClosed, "the controller at \(transport) closed the connection"))
                    return
                case .failure(let error):
                    await host.fail(error)
                    return
                }
            }
        }
    }

    /// Opens the controller `spec` names, writing every packet to `snoop` when given, and
    /// initialises it.
    public static func open(_ spec: HCITransportSpec, snoop: BTSnoopWriter? = nil,
                            logger: Logger = Logger(label: "mdoc.hci")) async throws(BLEError) -> LEHost {
        let transport = try await HCITransport.open(spec, snoop: snoop, logger: logger)
        let host = LEHost(transport: transport, logger: logger)
        do {
            try await host.start()
        } catch {
            transport.close()
            throw error
        }
        return host
    }

    /// Initialises the controller (Core Vol 4 Part E 7.3, 7.4, 7.8): Reset, Set Event Mask,
    /// Write LE Host Support (dual-mode controllers), LE Set Event Mask, LE Read Buffer Size
    /// (Read Buffer Size when LE shares the ACL buffers), Read BD_ADDR, LE Read Local
    /// Supported Features, LE Write Suggested Default Data Length when Data Length Extension is
    /// supported, and LE Set Random Address with a new static random address when the
    /// controller has no public address.
    public func start() async throws(BLEError) {
        _ = try await execute(.reset)
        let version = try? await execute(.readLocalVersionInformation)
        _ = try await execute(.setEventMask(Self.eventMask))
        _ = try? await execute(.writeLEHostSupport)
        _ = try await execute(.leSetEventMask(Self.leEventMask))

        var reader = PacketReader(try await execute(.leReadBufferSize), from: 1, packetName: "LE Read Buffer Size")
        var length = Int(try reader.uint16())
        var count = Int(try reader.uint8())
        if length == 0 || count == 0 {
            reader = PacketReader(try await execute(.readBufferSize), from: 1, packetName: "Read Buffer Size")
            length = Int(try reader.uint16())
            _ = try reader.uint8()
            count = Int(try reader.uint16())
        }
        guard length >= 27, count >= 1 else {
            throw BLEError(.controllerError,
                           "the controller reports \(count) ACL buffers of \(length) octets; LE needs at least one of 27 (Core Vol 6 Part B 2.4)")
        }
        aclDataLength = length
        flow = ACLFlowControl(bufferCount: count)

        reader = PacketReader(try await execute(.readBDADDR), from: 1, packetName: "Read BD_ADDR")
        var address = BluetoothAddress(hciBytes: try reader.bytes(6), type: .public)
        let features = try? await execute(.leReadLocalSupportedFeatures)
        let supportsDataLengthExtension = (features?.count ?? 0) >= 2 && features![1] & 0x20 != 0
        if supportsDataLengthExtension {
            _ = try? await execute(.leWriteSuggestedDefaultDataLength)
        }
        if address.isZero {
            address = BluetoothAddress.randomStatic()
            _ = try await execute(.leSetRandomAddress(address))
            ownAddressType = .random
        }
        controller = ControllerInfo(
            address: address, aclDataLength: length, aclBufferCount: count,
            hciVersion: version.flatMap { $0.count > 1 ? $0[1] : nil },
            supportsDataLengthExtension: supportsDataLengthExtension)
        logger.debug("controller ready", metadata: [
            "transport": "\(transport)", "address": "\(address)",
            "aclBuffers": "\(count) × \(length) octets", "dataLengthExtension": "\(supportsDataLengthExtension)",
        ])
    }

    /// Ends every link (Disconnect), stops advertising and scanning, and closes the transport.
    public func close() async {
        if failure == nil {
            // Links may be ending already (a bearer closed them): wait for those, end the rest.
            let deadline = ContinuousClock.now + Self.drainTimeout + Self.disconnectTimeout
            while !links.isEmpty, failure == nil, ContinuousClock.now < deadline {
                if let handle = links.keys.sorted().first(where: { disconnections[$0] == nil }) {
                    await disconnect(handle)
                } else {
                    try? await Task.sleep(for: .milliseconds(10))
                }
            }
            if advertising != nil { _ = try? await execute(.leSetAdvertisingEnable(false)) }
            if isScanning { _ = try? await execute(.leSetScanEnable(false)) }
        }
        fail(BLEError(.linkClosed, "the host was closed"))
        transport.close()
    }

    // MARK: Commands

    /// What the controller answered to a command.
    enum CommandOutcome: Sendable {
        /// Command Complete with these return parameters (the status first).
        case complete([UInt8])
        /// Command Status with this status.
        case status(HCIStatus)
    }

    /// Runs a command that completes with Command Complete and returns its return parameters,
    /// starting with the status. Throws `controllerError` for an error status.
    @discardableResult
    func execute(_ command: HCICommand) async throws(BLEError) -> [UInt8] {
        switch try await issue(command) {
        case .complete(let parameters):
            let status = HCIStatus(rawValue: parameters.first ?? HCIStatus.unknownCommand.rawValue)
            guard status == .success else { throw commandFailed(command, status) }
            return parameters
        case .status(let status):
            throw commandFailed(command, status == .success ? .unknownCommand : status)
        }
    }

    /// Runs a command that the controller accepts with Command Status and finishes with a later
    /// event (LE Create Connection, Disconnect, LE Connection Update). Throws `controllerError`
    /// when it refused.
    func executeAccepted(_ command: HCICommand) async throws(BLEError) {
        switch try await issue(command) {
        case .status(let status):
            guard status == .success else { throw commandFailed(command, status) }
        case .complete(let parameters):
            throw commandFailed(command, HCIStatus(rawValue: parameters.first ?? HCIStatus.unknownCommand.rawValue))
        }
    }

    /// Sends `command` when the controller can take it (one outstanding at a time) and waits
    /// for its Command Complete or Command Status; a controller that does not answer within
    /// ``commandTimeout`` fails the host.
    private func issue(_ command: HCICommand) async throws(BLEError) -> CommandOutcome {
        try checkRunning()
        while pendingCommand != nil || commandCredits == 0 {
            await withCheckedContinuation { commandWaiters.append($0) }
            try checkRunning()
        }
        let promise = Promise<CommandOutcome>()
        pendingCommand = (command.opcode, promise)
        commandCredits -= 1
        do {
            try transport.send(.command(command))
        } catch {
            fail(error)
            throw error
        }
        statistics.commandsSent += 1
        let opcode = command.opcode
        let timeout = commandTimeout
        let result = await promise.value(
            timeout: timeout,
            timedOut: { BLEError(.controllerError, "the controller did not answer \(opcode) within \(timeout)") },
            cancelled: nil)
        if pendingCommand?.promise === promise { pendingCommand = nil }
        // An unanswered command stops the host (4.4), even when its answer came late, while
        // this task waited to run again after the timeout.
        if case .failure(let error) = result { fail(error) }
        return try result.get()
    }

    private func commandFailed(_ command: HCICommand, _ status: HCIStatus) -> BLEError {
        BLEError(.controllerError, "the controller refused \(command.opcode): \(status)")
    }

    /// Lets the next command go when the controller has credits and none is outstanding.
    private func releaseCommandSlot() {
        guard pendingCommand == nil, commandCredits > 0, !commandWaiters.isEmpty else { return }
        commandWaiters.removeFirst().resume()
    }

    func checkRunning() throws(BLEError) {
        if let failure { throw failure }
    }

    /// A fresh identifier for waits and advertisements.
    func nextIdentifier() -> Int {
        lastIdentifier += 1
        return lastIdentifier
    }

    // MARK: Events

    /// Handles one packet from the controller.
    private func handle(_ packet: HCIPacket) {
        switch packet {
        case .event(let code, let parameters):
            statistics.eventsReceived += 1
            do {
                handle(try HCIEvent(code: code, parameters: parameters))
            } catch {
                logger.warning("ignoring a malformed event", metadata: ["error": "\(error)"])
            }
        case .aclData(let data):
            receive(data)
        case .command, .other:
            logger.debug("ignoring an HCI packet a host does not take", metadata: ["packet": "\(packet)"])
        }
    }

    private func handle(_ event: HCIEvent) {
        switch event {
        case .commandComplete(let credits, let opcode, let parameters):
            commandAnswered(opcode, .complete(parameters), credits: credits)
        case .commandStatus(let status, let credits, let opcode):
            commandAnswered(opcode, .status(status), credits: credits)
        case .disconnectionComplete(let status, let handle, let reason):
            if status == .success { linkEnded(handle, reason: reason) }
        case .numberOfCompletedPackets(let entries):
            for entry in entries { flow.complete(entry.count, for: entry.handle) }
            pump()
        case .hardwareError(let code):
            fail(BLEError(.controllerError, "the controller reported hardware error 0x\(String(code, radix: 16))"))
        case .dataBufferOverflow:
            logger.warning("the controller dropped data: its buffers overflowed")
        case .leConnectionComplete(let complete):
            connectionCompleted(complete)
        case .leAdvertisingReports(let reports):
            for report in reports {
                for consumer in scanConsumers.values { consumer(report) }
            }
        case .leConnectionUpdateComplete(let status, let handle, let interval, let latency, let timeout):
            logger.debug("connection parameters", metadata: [
                "handle": "\(handle)", "status": "\(status)", "interval": "\(Double(interval) * 1.25) ms",
                "latency": "\(latency)", "supervisionTimeout": "\(Int(timeout) * 10) ms",
            ])
        case .leDataLengthChange(let handle, let tx, let rx):
            logger.debug("data length", metadata: ["handle": "\(handle)", "maxTxOctets": "\(tx)", "maxRxOctets": "\(rx)"])
        case .leOther, .other:
            break
        }
    }

    /// The controller answered `opcode` (a Command Complete or Command Status) and can take
    /// `credits` more commands: the outstanding command gets `outcome` (Core Vol 4 Part E 4.4).
    private func commandAnswered(_ opcode: HCIOpcode, _ outcome: CommandOutcome, credits: UInt8) {
        commandCredits = Int(credits)
        if opcode != .noOperation, let pending = pendingCommand, pending.opcode == opcode {
            pendingCommand = nil
            pending.promise.fulfil(.success(outcome))
        }
        releaseCommandSlot()
    }

    /// Stops the host: waiting commands, connects, accepts and sends fail with `error`, every
    /// link's bearer ends. Idempotent (the first error stays).
    func fail(_ error: BLEError) {
        if failure == nil {
            failure = error
            if error.code != .linkClosed { logger.error("HCI host stopped", metadata: ["error": "\(error)"]) }
        }
        let reason = failure ?? error
        if let pending = pendingCommand {
            pendingCommand = nil
            pending.promise.fulfil(.failure(reason))
        }
        let waiting = commandWaiters
        commandWaiters = []
        for waiter in waiting { waiter.resume() }
        pendingConnection?.promise.fulfil(.failure(reason))
        advertising?.fail(reason)
        for promise in disconnections.values { promise.fulfil(.failure(reason)) }
        // The controller going away ends links like a disconnection; a controller failure is
        // an error of each link.
        for handle in Array(links.keys) { removeLink(handle, end: reason.code == .linkClosed ? .success(()) : .failure(reason)) }
        for frame in outgoing { frame.completion.resume(returning: .failure(reason)) }
        outgoing = []
    }
}
