import Glibc
import Logging
@testable import MdocBLE
@testable import MdocLEHost
import MdocTestSupport
import NIOCore

/// Test double of a Bluetooth controller: the far end of an H4 byte stream (a socket pair) that
/// answers the host's commands as a controller would, records what the host sent, and lets a
/// test inject events and ACL data (links made, reports, drops, malformed data).
///
/// The real components under test are everything on the host side: ``HCITransport`` with its
/// channel and H4 framing, ``LEHost``, L2CAP, and the GATT layers above. The controller's end is
/// an ``HCITransport`` too: H4 is the same both ways.
actor ScriptedController {
    /// What Read BD_ADDR answers (all zero: the host must set a static random address).
    let address: [UInt8]
    /// LE Read Buffer Size: packet length and count (0 and 0 send the host to Read Buffer Size).
    let aclLength: Int
    let bufferCount: Int
    /// Commands never answered (to test the command timeout).
    private let silent: Set<HCIOpcode>
    /// Commands answered with this error status.
    private let refused: [HCIOpcode: HCIStatus]
    /// Whether every ACL packet is completed at once (Number Of Completed Packets).
    private var completesPackets: Bool
    /// Whether LE Set Advertising Enable is refused (Command Disallowed) while a link exists, as
    /// controllers that cannot advertise connectable while connected do.
    private let refusesAdvertisingWhileConnected: Bool
    /// The links reported to the host and not ended.
    private var links: Set<UInt16> = []

    /// The controller's end of the stream.
    private let end: HCITransport
    private(set) var commands: [HCICommand] = []
    private var acl: [HCIACLData] = []
    private var aclWaiters: [CheckedContinuation<HCIACLData?, Never>] = []
    private var commandWaiters: [(HCIOpcode, CheckedContinuation<HCICommand?, Never>)] = []
    private var nextWaiter = 0
    /// Tests waiting until the host sent a number of commands with an opcode and parameters, by
    /// number.
    private var countWaiters: [Int: (opcode: HCIOpcode, parameters: [UInt8], count: Int, continuation: CheckedContinuation<Int, Never>)] = [:]
    private var hostClosed = false

    /// A controller and the transport a host uses to reach it.
    static func make(address: [UInt8] = [0, 0, 0, 0, 0, 0], aclLength: Int = 27, bufferCount: Int = 8,
                     silent: Set<HCIOpcode> = [], refused: [HCIOpcode: HCIStatus] = [:],
                     refusesAdvertisingWhileConnected: Bool = false,
                     completesPackets: Bool = true, snoop: BTSnoopWriter? = nil) async throws -> (ScriptedController, HCITransport) {
        var pair: [Int32] = [-1, -1]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        guard socketpair(AF_UNIX, type, 0, &pair) == 0 else { throw BLEError(.systemCall, "socketpair") }
        let transport = try await HCITransport.open(descriptor: pair[0], framing: .h4Stream, spec: nil, snoop: snoop,
                                                    logger: Logger(label: "test.hci"))
        let end = try await HCITransport.open(descriptor: pair[1], framing: .h4Stream, spec: nil, snoop: nil,
                                              logger: Logger(label: "test.controller"))
        let controller = ScriptedController(
            end: end, address: address, aclLength: aclLength, bufferCount: bufferCount, silent: silent,
            refused: refused, refusesAdvertisingWhileConnected: refusesAdvertisingWhileConnected,
            completesPackets: completesPackets)
        try await controller.listen()
        return (controller, transport)
    }

    /// The event loop of the controller's end runs the controller, as the host's runs the host:
    /// its answers never wait for the shared cooperative threads, which other tests may hold on a
    /// busy machine.
    nonisolated var unownedExecutor: UnownedSerialExecutor {
        end.eventLoop.executor.asUnownedSerialExecutor()
    }

    /// How long a test waits for what the host or this controller does next: an inactivity bound,
    /// stretched under the sanitizers (``TimeoutScale``), which nothing waits out when a test passes.
    static let patience: Duration = .seconds(5 * TimeoutScale.factor)

    /// The host's bound on this controller's answers: this controller answers at once on its
    /// event loop, so the bound is only met on a machine too busy to run it, as under the
    /// sanitizers beside a build.
    static let answerBound: Duration = .seconds(10 * TimeoutScale.factor)

    /// A host on a fresh scripted controller, started.
    static func startedHost(commandTimeout: Duration = answerBound, completesPackets: Bool = true, bufferCount: Int = 8,
                            aclLength: Int = 27, refusesAdvertisingWhileConnected: Bool = false) async throws -> (LEHost, ScriptedController) {
        let (controller, transport) = try await make(aclLength: aclLength, bufferCount: bufferCount,
                                               refusesAdvertisingWhileConnected: refusesAdvertisingWhileConnected,
                                               completesPackets: completesPackets)
        let host = LEHost(transport: transport, commandTimeout: commandTimeout, logger: Logger(label: "test.hci"))
        try await host.start()
        return (host, controller)
    }

    private init(end: HCITransport, address: [UInt8], aclLength: Int, bufferCount: Int, silent: Set<HCIOpcode>,
                 refused: [HCIOpcode: HCIStatus], refusesAdvertisingWhileConnected: Bool, completesPackets: Bool) {
        self.end = end
        self.address = address
        self.refusesAdvertisingWhileConnected = refusesAdvertisingWhileConnected
        self.aclLength = aclLength
        self.bufferCount = bufferCount
        self.silent = silent
        self.refused = refused
        self.completesPackets = completesPackets
    }

    /// Takes what the host sends, in order, until it closes its end.
    private func listen() async throws {
        let inbox = try await HCIPacketInbox(end)
        Task {
            while let packet = await inbox.next() { try? self.take(packet) }
            self.hostGone()
        }
    }

    // MARK: What the test does

    /// Sends `packet` to the host.
    func send(_ packet: HCIPacket) throws {
        end.send(packet)
    }

    /// Sends raw bytes to the host, one write per byte (an H4 stream may split anywhere).
    func sendBytewise(_ bytes: [UInt8]) throws {
        end.sendBytewise(bytes)
    }

    /// Sends event `code` with `parameters`.
    func event(_ code: UInt8, _ parameters: [UInt8]) throws {
        try send(.event(code: code, parameters: parameters))
    }

    /// Reports a link: LE Connection Complete for `handle` in `role` with `peer`.
    func connect(handle: UInt16, role: LEConnectionComplete.Role,
                 peer: [UInt8] = [0xC5, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5], status: HCIStatus = .success) throws {
        if status == .success { links.insert(handle) }
        try event(0x3E, [0x01, status.rawValue, UInt8(handle & 0xFF), UInt8(handle >> 8), role.rawValue, 0x01]
                  + peer.reversed() + [0x18, 0x00, 0x00, 0x00, 0xF4, 0x01, 0x00])
    }

    /// Reports the end of link `handle`.
    func disconnect(handle: UInt16, reason: HCIStatus = .connectionTimeout) throws {
        links.remove(handle)
        try event(0x05, [0x00, UInt8(handle & 0xFF), UInt8(handle >> 8), reason.rawValue])
    }

    /// Waits up to `timeout` until the host sent `count` commands `opcode` with `parameters`;
    /// returns how many it sent.
    func awaitCommands(_ opcode: HCIOpcode, parameters: [UInt8], count: Int, timeout: Duration = patience) async -> Int {
        let sent = sentCount(opcode, parameters)
        guard sent < count else { return sent }
        let id = nextWaiter
        nextWaiter += 1
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            if !Task.isCancelled { await self?.expireCountWaiter(id) }
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { countWaiters[id] = (opcode, parameters, count, $0) }
    }

    private func sentCount(_ opcode: HCIOpcode, _ parameters: [UInt8]) -> Int {
        commands.filter { $0.opcode == opcode && $0.parameters == parameters }.count
    }

    private func expireCountWaiter(_ id: Int) {
        guard let waiter = countWaiters.removeValue(forKey: id) else { return }
        waiter.continuation.resume(returning: sentCount(waiter.opcode, waiter.parameters))
    }

    /// Sends an L2CAP frame on `channelID` of `handle` as the peer would, in ACL packets of
    /// at most `size` octets.
    func sendFrame(_ payload: [UInt8], channelID: UInt16, handle: UInt16, size: Int = 27) throws {
        for (index, fragment) in L2CAPBasicFrame(channelID: channelID, payload: payload)
            .fragments(handle: handle, maximumDataLength: size).enumerated() {
            try send(.aclData(HCIACLData(handle: handle, packetBoundary: index == 0 ? .firstFlushable : .continuing,
                                         data: fragment.data)))
        }
    }

    /// Completes `count` packets of `handle`.
    func complete(_ count: Int, handle: UInt16) throws {
        try event(0x13, [0x01, UInt8(handle & 0xFF), UInt8(handle >> 8), UInt8(count & 0xFF), UInt8(count >> 8)])
    }

    /// Whether ACL packets are completed at once from now on.
    func setCompletesPackets(_ value: Bool) {
        completesPackets = value
    }

    /// Closes the controller's end of the stream (a controller that went away).
    func closeStream() {
        end.close()
    }

    /// The next ACL packet from the host, nil when none came within `timeout`.
    func nextACL(timeout: Duration = patience) async -> HCIACLData? {
        if !acl.isEmpty { return acl.removeFirst() }
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            if !Task.isCancelled { await self?.expireACLWaiters() }
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { aclWaiters.append($0) }
    }

    /// How many ACL packets arrived and were not taken yet.
    var pendingACLCount: Int { acl.count }

    /// The next L2CAP frame the host sent on `handle`, reassembled.
    func nextFrame(timeout: Duration = patience) async -> L2CAPBasicFrame? {
        var reassembler = L2CAPReassembler()
        while let packet = await nextACL(timeout: timeout) {
            let received = HCIACLData(handle: packet.handle,
                                      packetBoundary: packet.packetBoundary == .firstNonFlushable ? .firstFlushable : .continuing,
                                      data: packet.data)
            if let frame = try? reassembler.append(received) { return frame }
        }
        return nil
    }

    /// Waits up to `timeout` for the host to send a command with `opcode` (taken already or
    /// later); nil when it did not.
    func command(_ opcode: HCIOpcode, timeout: Duration = patience) async -> HCICommand? {
        if let earlier = commands.first(where: { $0.opcode == opcode }) { return earlier }
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            if !Task.isCancelled { await self?.expireCommandWaiters(opcode) }
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { commandWaiters.append((opcode, $0)) }
    }

    /// Whether the host closed its end.
    var isHostClosed: Bool { hostClosed }

    // MARK: The controller's side

    private func take(_ packet: HCIPacket) throws {
        switch packet {
        case .command(let command):
            commands.append(command)
            for (index, waiter) in commandWaiters.enumerated().reversed() where waiter.0 == command.opcode {
                commandWaiters.remove(at: index)
                waiter.1.resume(returning: command)
            }
            for (id, waiter) in countWaiters where waiter.opcode == command.opcode && waiter.parameters == command.parameters {
                let sent = sentCount(waiter.opcode, waiter.parameters)
                if sent >= waiter.count {
                    countWaiters[id] = nil
                    waiter.continuation.resume(returning: sent)
                }
            }
            try answer(command)
        case .aclData(let data):
            if completesPackets { try complete(1, handle: data.handle) }
            if aclWaiters.isEmpty {
                acl.append(data)
            } else {
                aclWaiters.removeFirst().resume(returning: data)
            }
        default:
            break
        }
    }

    private func answer(_ command: HCICommand) throws {
        let opcode = command.opcode
        guard !silent.contains(opcode) else { return }
        let code = [UInt8(opcode.rawValue & 0xFF), UInt8(opcode.rawValue >> 8)]
        if let status = refused[opcode] ?? (opcode == .leSetAdvertisingEnable && command.parameters == [0x01]
                                            && refusesAdvertisingWhileConnected && !links.isEmpty ? .commandDisallowed : nil) {
            try event(0x0E, [0x01] + code + [status.rawValue])
            return
        }
        switch opcode {
        case .leCreateConnection, .leConnectionUpdate:
            try event(0x0F, [0x00, 0x01] + code)
        case .disconnect:
            links.remove(UInt16(command.parameters[0]) | UInt16(command.parameters[1]) << 8)
            try event(0x0F, [0x00, 0x01] + code)
            try event(0x05, [0x00] + Array(command.parameters[0..<2]) + [HCIStatus.connectionTerminatedByLocalHost.rawValue])
        case .readLocalVersionInformation:
            try event(0x0E, [0x01] + code + [0x00, 0x0B, 0x00, 0x00, 0x0B, 0xFF, 0xFF, 0x00, 0x00])
        case .leReadBufferSize:
            try event(0x0E, [0x01] + code + [0x00, UInt8(aclLength & 0xFF), UInt8(aclLength >> 8), UInt8(bufferCount)])
        case .readBufferSize:
            try event(0x0E, [0x01] + code + [0x00, 0xFD, 0x03, 0x00, 0x04, 0x00, 0x00, 0x00])
        case .readBDADDR:
            try event(0x0E, [0x01] + code + [0x00] + address.reversed())
        case .leReadLocalSupportedFeatures:
            try event(0x0E, [0x01] + code + [0x00, 0x20, 0, 0, 0, 0, 0, 0, 0])
        default:
            try event(0x0E, [0x01] + code + [0x00])
        }
    }

    private func hostGone() {
        hostClosed = true
        expireACLWaiters()
    }

    private func expireACLWaiters() {
        let waiting = aclWaiters
        aclWaiters = []
        for waiter in waiting { waiter.resume(returning: nil) }
    }

    private func expireCommandWaiters(_ opcode: HCIOpcode) {
        for (index, waiter) in commandWaiters.enumerated().reversed() where waiter.0 == opcode {
            commandWaiters.remove(at: index)
            waiter.1.resume(returning: nil)
        }
    }
}
