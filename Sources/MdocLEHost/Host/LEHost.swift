#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import MdocBLE
import NIOCore

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
/// The host runs on its transport's event loop: each packet from the controller is handled as it
/// arrives, and a reaction that needs a command (disconnecting an unwanted link, a connection
/// update) is a chain of futures on the loop, which the transport's end ends too. Nothing in the
/// host waits on a timer: commands, connections and disconnections have scheduled deadlines.
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
    /// The transport's event loop, which runs the host.
    nonisolated let eventLoop: any EventLoop
    /// What the controller reported during ``start()``; nil before.
    public private(set) var controller: ControllerInfo?
    /// Counters of what crossed the controller interface.
    public internal(set) var statistics = LEHostStatistics()

    /// The address type this host advertises, scans and connects with.
    var ownAddressType: BluetoothAddress.AddressType = .public
    /// The controller's command credits (Num_HCI_Command_Packets).
    private var commandCredits = 1
    /// The command sent and not answered yet.
    private var pendingCommand: (opcode: HCIOpcode, promise: EventLoopPromise<CommandOutcome>, timer: Scheduled<Void>)?
    /// Commands waiting for the controller to take the next one, in order.
    private var queuedCommands = CircularBuffer<(command: HCICommand, promise: EventLoopPromise<CommandOutcome>)>()
    var flow = ACLFlowControl(bufferCount: 1)
    var aclDataLength = 27
    var outgoing = CircularBuffer<OutgoingFrame>()
    var links: [UInt16: LinkState] = [:]
    var advertising: AdvertisingState?
    /// The receivers of advertising reports while scanning, each with what ends its wait when
    /// the host stops.
    var scanConsumers: [Int: (report: (LEAdvertisingReport) -> Void, ended: (BLEError) -> Void)] = [:]
    var isScanning = false
    var pendingConnection: (peer: BluetoothAddress, promise: EventLoopPromise<LEConnectionComplete>)?
    /// The links being ended from this side, each with the end of the whole procedure.
    var disconnecting: [UInt16: EventLoopPromise<Void>] = [:]
    /// The Disconnection Complete each of them waits for.
    var disconnectionComplete: [UInt16: EventLoopPromise<HCIStatus>] = [:]
    /// The links whose queued data a disconnection waits to leave the controller.
    var drainWaiters: [UInt16: EventLoopPromise<Void>] = [:]
    /// Why the host stopped working (transport closed, controller failed); every operation
    /// then fails with it.
    var failure: BLEError?
    /// Fires with ``failure`` when it is set.
    private nonisolated let failureSignal = RadioFailureSignal()
    private var lastIdentifier = 0

    /// The transport's event loop runs the host.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        eventLoop.executor.asUnownedSerialExecutor()
    }

    /// A host over `transport`; call ``start()`` before anything else, ``close()`` at the end.
    public init(transport: HCITransport, commandTimeout: Duration = LEHost.defaultCommandTimeout,
                logger: Logger = Logger(label: "mdoc.hci")) {
        self.transport = transport
        self.commandTimeout = commandTimeout
        self.logger = logger
        eventLoop = transport.eventLoop
        eventLoop.execute { [weak self] in
            self?.assumeIsolated { $0.attach() }
        }
    }

    deinit {
        transport.close()
    }

    /// Takes the controller's packets from now on, as they arrive.
    private func attach() {
        let description = transport.description
        transport.attach(
            received: { [weak self] packet in self?.assumeIsolated { $0.handle(packet) } },
            ended: { [weak self] end in
                self?.assumeIsolated { host in
                    switch end {
                    case .success: host.fail(BLEError(.linkClosed, "the controller at \(description) closed the connection"))
                    case .failure(let error): host.fail(error)
                    }
                }
            })
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
    /// Waits until the host stops working (`MdocRadio.failure()`): its transport or controller
    /// failed, or it was closed.
    public nonisolated func failure() async -> BLEError? {
        await failureSignal.failure()
    }

    public func close() async {
        if failure == nil {
            // Links may be ending already (a bearer closed them): those are waited for, the
            // rest are ended; each ending is bounded by its own deadlines.
            let endings = links.keys.sorted().map { disconnect($0) }
            for ending in endings { try? await ending.get() }
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
        switch try await issue(command).bleValue() {
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
        switch try await issue(command).bleValue() {
        case .status(let status):
            guard status == .success else { throw commandFailed(command, status) }
        case .complete(let parameters):
            throw commandFailed(command, HCIStatus(rawValue: parameters.first ?? HCIStatus.unknownCommand.rawValue))
        }
    }

    /// Sends `command` when the controller can take it (one outstanding at a time, in order)
    /// and completes with its Command Complete or Command Status; a controller that does not
    /// answer within ``commandTimeout`` fails the host.
    func issue(_ command: HCICommand) -> EventLoopFuture<CommandOutcome> {
        if let failure { return eventLoop.makeFailedFuture(failure) }
        let promise = eventLoop.makePromise(of: CommandOutcome.self)
        queuedCommands.append((command, promise))
        sendNextCommand()
        return promise.futureResult
    }

    /// Sends the next queued command when none is outstanding and the controller has credits.
    private func sendNextCommand() {
        guard pendingCommand == nil, commandCredits > 0, failure == nil, let (command, promise) = queuedCommands.popFirst() else {
            return
        }
        commandCredits -= 1
        let opcode = command.opcode
        let timeout = commandTimeout
        let timer = eventLoop.scheduleTask(in: TimeAmount(timeout)) { [weak self] () -> Void in
            self?.assumeIsolated { host in
                guard host.pendingCommand?.promise.futureResult === promise.futureResult else { return }
                host.fail(BLEError(.controllerError, "the controller did not answer \(opcode) within \(timeout)"))
            }
        }
        pendingCommand = (opcode, promise, timer)
        transport.send(.command(command))
        statistics.commandsSent += 1
    }

    /// Whether `outcome` is a Command Complete with status Success.
    static func succeeded(_ outcome: Result<CommandOutcome, any Error>) -> Bool {
        guard case .success(.complete(let parameters)) = outcome else { return false }
        return parameters.first == HCIStatus.success.rawValue
    }

    /// Calls `body` on the host when `future`, a future of the host's event loop, completes.
    nonisolated func after<Value: Sendable>(_ future: EventLoopFuture<Value>,
                                            _ body: @escaping @Sendable (isolated LEHost, Result<Value, any Error>) -> Void) {
        future.whenComplete { result in
            self.assumeIsolated { body($0, result) }
        }
    }

    private func commandFailed(_ command: HCICommand, _ status: HCIStatus) -> BLEError {
        BLEError(.controllerError, "the controller refused \(command.opcode): \(status)")
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
                for consumer in scanConsumers.values { consumer.report(report) }
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
            pending.timer.cancel()
            pending.promise.succeed(outcome)
        }
        sendNextCommand()
    }

    /// Stops the host: waiting commands, connects, accepts and sends fail with `error`, every
    /// link's bearer ends. Idempotent (the first error stays).
    func fail(_ error: BLEError) {
        if failure == nil {
            failure = error
            if error.code != .linkClosed { logger.error("HCI host stopped", metadata: ["error": "\(error)"]) }
        }
        let reason = failure ?? error
        failureSignal.fail(reason)
        if let pending = pendingCommand {
            pendingCommand = nil
            pending.timer.cancel()
            pending.promise.fail(reason)
        }
        while let queued = queuedCommands.popFirst() { queued.promise.fail(reason) }
        if let pending = pendingConnection {
            pendingConnection = nil
            pending.promise.fail(reason)
        }
        advertising?.fail(reason)
        // A central looking for a peripheral learns at once that no report will come.
        for consumer in scanConsumers.values { consumer.ended(reason) }
        for promise in disconnectionComplete.values { promise.fail(reason) }
        disconnectionComplete = [:]
        // The controller going away ends links like a disconnection; a controller failure is
        // an error of each link.
        for handle in Array(links.keys) { removeLink(handle, end: reason.code == .linkClosed ? .success(()) : .failure(reason)) }
        while let frame = outgoing.popFirst() { frame.promise.fail(reason) }
        for promise in drainWaiters.values { promise.succeed() }
        drainWaiters = [:]
        for promise in disconnecting.values { promise.succeed() }
        disconnecting = [:]
    }
}
