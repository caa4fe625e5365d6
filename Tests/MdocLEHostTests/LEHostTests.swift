#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
@testable import MdocBLE
@testable import MdocLEHost
import MdocTestSupport
import NIOConcurrencyHelpers
import Testing

@Suite("The user-space LE host over a scripted controller (Core Vol 4 Part E, Core Vol 3 Part A)", .timeLimit(.minutes(1)))
struct LEHostTests {
    static let uuid = GATTTestFixtures.service.uuid
    static let peer: [UInt8] = [0xC5, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5]
    static let att = L2CAPChannelID.attributeProtocol

    /// A host with an accepted peripheral link on handle 0x0040, and its ATT bearer.
    static func peripheralLink(completesPackets: Bool = true, bufferCount: Int = 8)
        async throws -> (LEHost, ScriptedController, any ATTBearer) {
        let (host, controller) = try await ScriptedController.startedHost(completesPackets: completesPackets,
                                                                          bufferCount: bufferCount)
        let advertisement = try await host.advertise(serviceUUID: uuid)
        try await controller.connect(handle: 0x0040, role: .peripheral, peer: peer)
        let bearer = try await advertisement.accept(timeout: ScriptedController.patience)
        await advertisement.stop()
        return (host, controller, bearer)
    }

    @Test("start: Reset, masks, buffers, address; a static random address when BD_ADDR is zero")
    func initialisation() async throws {
        let (host, controller) = try await ScriptedController.startedHost()
        let sent = await controller.commands.map(\.opcode)
        #expect(sent == [.reset, .readLocalVersionInformation, .setEventMask, .writeLEHostSupport, .leSetEventMask,
                         .leReadBufferSize, .readBDADDR, .leReadLocalSupportedFeatures,
                         .leWriteSuggestedDefaultDataLength, .leSetRandomAddress])
        let info = try #require(await host.controller)
        #expect(info.address.type == .random && info.address.octets[0] & 0xC0 == 0xC0)
        #expect(info.aclDataLength == 27 && info.aclBufferCount == 8 && info.supportsDataLengthExtension)
        let setAddress = try #require(await controller.commands.last)
        #expect(setAddress.parameters == info.address.octets.reversed())
        let mask = try #require(await controller.commands.first { $0.opcode == .setEventMask })
        #expect(mask.parameters == [0x90, 0x80, 0x00, 0x02, 0x00, 0x80, 0x00, 0x20])
        await host.close()
    }

    @Test("a controller with a public address keeps it; shared buffers come from Read Buffer Size")
    func publicAddressAndSharedBuffers() async throws {
        let (controller, transport) = try await ScriptedController.make(address: [0x00, 0x1B, 0xDC, 0x01, 0x02, 0x03],
                                                                  aclLength: 0, bufferCount: 0)
        let host = LEHost(transport: transport, logger: Logger(label: "test.hci"))
        try await host.start()
        let info = try #require(await host.controller)
        #expect(info.address.type == .public && info.address.octets == [0x00, 0x1B, 0xDC, 0x01, 0x02, 0x03])
        #expect(info.aclDataLength == 1021 && info.aclBufferCount == 4)
        #expect(await !controller.commands.contains { $0.opcode == .leSetRandomAddress })
        await host.close()
    }

    /// The command timeout of the host whose controller leaves a command unanswered.
    static let silentCommandTimeout: Duration = .seconds(2)

    @Test("a controller that does not answer a command stops the host after the command timeout")
    func commandTimeout() async throws {
        let (_, transport) = try await ScriptedController.make(silent: [.leSetEventMask])
        // Long enough for the commands the controller answers to be answered on a busy machine.
        let host = LEHost(transport: transport, commandTimeout: Self.silentCommandTimeout, logger: Logger(label: "test.hci"))
        let started = ContinuousClock.now
        do {
            try await host.start()
            Issue.record("start succeeded without an answer")
        } catch {
            #expect(error.code == .controllerError)
            #expect(error.reason.contains("LE Set Event Mask"))
            #expect(error.reason.contains("did not answer"), "\(error.reason)")
        }
        // It waited the command timeout out; that it does not wait for ever is the suite's limit.
        #expect(ContinuousClock.now - started >= Self.silentCommandTimeout)
        await #expect(throws: BLEError(.controllerError, "")) { try await host.advertise(serviceUUID: Self.uuid) }
    }

    @Test("a refused command is an error naming the command and the status")
    func refusedCommand() async throws {
        let (controller, transport) = try await ScriptedController.make(refused: [.leSetAdvertisingEnable: .commandDisallowed])
        let host = LEHost(transport: transport, logger: Logger(label: "test.hci"))
        try await host.start()
        do {
            _ = try await host.advertise(serviceUUID: Self.uuid)
            Issue.record("advertising started")
        } catch {
            #expect(error.code == .controllerError)
            #expect(error.reason.contains("LE Set Advertising Enable") && error.reason.contains("Command Disallowed (0x0C)"))
        }
        // The failed advertisement is gone: the next one may start.
        #expect(await controller.commands.filter { $0.opcode == .leSetAdvertisingData }.count == 1)
        await host.close()
    }

    @Test("too few or too small buffers are refused")
    func smallBuffers() async throws {
        let (_, transport) = try await ScriptedController.make(aclLength: 26)
        let host = LEHost(transport: transport, logger: Logger(label: "test.hci"))
        await #expect(throws: BLEError(.controllerError, "")) { try await host.start() }
    }

    @Test("advertising sends the 18013-5 advertising data; the link made to it is accepted")
    func advertising() async throws {
        let (host, controller, bearer) = try await Self.peripheralLink()
        let data = try #require(await controller.command(.leSetAdvertisingData))
        #expect(Array(data.parameters[1..<22]) == AdvertisingData.advertising(serviceUUID: Self.uuid).bytes)
        let parameters = try #require(await controller.command(.leSetAdvertisingParameters))
        #expect(parameters.parameters[4] == 0x00 && parameters.parameters[5] == 0x01)  // ADV_IND, random address
        try await controller.sendFrame([0x02, 0x03, 0x02], channelID: Self.att, handle: 0x40)
        #expect(try await ATTBearerInbox(bearer).receive() == [0x02, 0x03, 0x02])
        await host.close()
    }

    @Test("advertising goes on after each connection: the host enables it again and takes the next central")
    func advertisingAfterConnections() async throws {
        let (host, controller) = try await ScriptedController.startedHost()
        let advertisement = try await host.advertise(serviceUUID: Self.uuid)
        #expect(await controller.awaitCommands(.leSetAdvertisingEnable, parameters: [0x01], count: 1) == 1)
        try await controller.connect(handle: 0x40, role: .peripheral, peer: Self.peer)
        let first = try await advertisement.accept(timeout: ScriptedController.patience)
        #expect(await controller.awaitCommands(.leSetAdvertisingEnable, parameters: [0x01], count: 2) == 2)
        try await controller.connect(handle: 0x41, role: .peripheral, peer: [0xC5, 0, 0, 0, 0, 2])
        let second = try await advertisement.accept(timeout: ScriptedController.patience)
        #expect(await controller.awaitCommands(.leSetAdvertisingEnable, parameters: [0x01], count: 3) == 3)
        try await controller.sendFrame([0x02, 0x17, 0x00], channelID: Self.att, handle: 0x41)
        #expect(try await ATTBearerInbox(second).receive() == [0x02, 0x17, 0x00])
        // The first central leaving changes nothing: advertising is on already.
        try await controller.disconnect(handle: 0x40)
        #expect(try await ATTBearerInbox(first).receive() == nil)
        await advertisement.stop()
        #expect(await controller.awaitCommands(.leSetAdvertisingEnable, parameters: [0x00], count: 1) == 1)
        #expect(await controller.commands.filter { $0.opcode == .leSetAdvertisingEnable && $0.parameters == [0x01] }.count == 3)
        // Stopped: a central connecting now is ended at once.
        try await controller.connect(handle: 0x42, role: .peripheral, peer: [0xC5, 0, 0, 0, 0, 3])
        #expect(await controller.awaitCommands(.disconnect, parameters: [0x42, 0x00, 0x13], count: 1) == 1)
        await host.close()
    }

    @Test("a controller that cannot advertise while connected advertises again when the link ends")
    func advertisingAfterDisconnection() async throws {
        let (host, controller) = try await ScriptedController.startedHost(refusesAdvertisingWhileConnected: true)
        let advertisement = try await host.advertise(serviceUUID: Self.uuid)
        try await controller.connect(handle: 0x40, role: .peripheral, peer: Self.peer)
        let bearer = try await advertisement.accept(timeout: ScriptedController.patience)
        // Asked at once and refused (Command Disallowed): not advertising while the link lasts.
        #expect(await controller.awaitCommands(.leSetAdvertisingEnable, parameters: [0x01], count: 2) == 2)
        try await controller.disconnect(handle: 0x40)
        #expect(try await ATTBearerInbox(bearer).receive() == nil)
        #expect(await controller.awaitCommands(.leSetAdvertisingEnable, parameters: [0x01], count: 3) == 3)
        try await controller.connect(handle: 0x41, role: .peripheral, peer: Self.peer)
        _ = try await advertisement.accept(timeout: ScriptedController.patience)
        await advertisement.stop()
        await host.close()
    }

    @Test("ACL flow control: never more packets than controller buffers; more after Number Of Completed Packets")
    func flowControl() async throws {
        let (host, controller, bearer) = try await Self.peripheralLink(completesPackets: false, bufferCount: 2)
        let pdu = [UInt8](repeating: 0x1B, count: 100)  // 104 octets with the L2CAP header: 4 packets of ≤ 27
        let sent = NIOLockedValueBox(false)
        let before = await host.statistics.aclPacketsSent
        let sender = Task {
            try await bearer.send(pdu)
            sent.withLockedValue { $0 = true }
        }
        var received: [HCIACLData] = []
        for _ in 0..<2 { received.append(try #require(await controller.nextACL())) }
        // The host writes what the free buffers allow in one go, counting each packet before
        // the packets leave: two arrived, so it wrote two and holds the rest.
        #expect(await host.statistics.aclPacketsSent == before + 2)
        #expect(await controller.pendingACLCount == 0)
        #expect(!sent.withLockedValue { $0 })
        try await controller.complete(1, handle: 0x40)
        received.append(try #require(await controller.nextACL()))
        #expect(await host.statistics.aclPacketsSent == before + 3)
        #expect(await controller.pendingACLCount == 0)
        try await controller.complete(2, handle: 0x40)
        received.append(try #require(await controller.nextACL()))
        try await sender.value
        #expect(received.map(\.data.count) == [27, 27, 27, 23])
        #expect(received.map(\.packetBoundary) == [.firstNonFlushable, .continuing, .continuing, .continuing])
        #expect(Array(received.map(\.data).joined()) == L2CAPBasicFrame(channelID: Self.att, payload: pdu).bytes)
        let statistics = await host.statistics
        #expect(statistics.aclPacketsSent == 4 && statistics.aclOctetsSent == 104 + 4 * 4 && statistics.attPDUsSent == 1)
        await host.close()
    }

    @Test("ATT error responses travel over HCI: invalid handle, request not supported")
    func attErrorResponses() async throws {
        let (host, controller, bearer) = try await Self.peripheralLink()
        let server = MdocGATTServerTransport(mode: .peripheralServer, serviceUUID: Self.uuid, bearer: bearer)
        try await controller.sendFrame([0x0A, 0xFF, 0x00], channelID: Self.att, handle: 0x40)
        #expect(await controller.nextFrame()?.payload == [0x01, 0x0A, 0xFF, 0x00, 0x01])
        try await controller.sendFrame([0x16, 0x03, 0x00, 0x00, 0x00, 0x01], channelID: Self.att, handle: 0x40)
        #expect(await controller.nextFrame()?.payload == [0x01, 0x16, 0x00, 0x00, 0x06])
        server.close()
        await host.close()
    }

    /// Plays an 18013-5 GATT client on the controller side of link 0x40: subscriptions to State
    /// (CCCD 4) and Server2Client (CCCD 9), then State 0x01 (handle 3).
    static func startSession(_ controller: ScriptedController) async throws {
        for cccd: UInt8 in [4, 9] {
            try await controller.sendFrame([0x12, cccd, 0x00, 0x01, 0x00], channelID: att, handle: 0x40)
            #expect(await controller.nextFrame()?.payload == [0x13])
        }
        try await controller.sendFrame([0x52, 0x03, 0x00, 0x01], channelID: att, handle: 0x40)
    }

    @Test("a controller dropping the link mid-message: the partial message is dropped and the session sees the end")
    func dropMidMessage() async throws {
        let (host, controller, bearer) = try await Self.peripheralLink()
        let server = MdocGATTServerTransport(mode: .peripheralServer, serviceUUID: Self.uuid, bearer: bearer)
        try await Self.startSession(controller)
        // Two chunks of a message that says more follow (header 0x01) on Client2Server (handle 6).
        for _ in 0..<2 {
            try await controller.sendFrame([0x52, 0x06, 0x00, 0x01] + [UInt8](repeating: 0xAB, count: 19), channelID: Self.att, handle: 0x40)
        }
        try await controller.disconnect(handle: 0x40, reason: .connectionTimeout)
        #expect(try await server.receive() == .disconnected)
        await #expect(throws: BLEError(.linkClosed, "")) { try await server.send([1, 2, 3]) }
        await host.close()
    }

    @Test("a link dropped while the holder sends: the send fails, nothing hangs")
    func dropWhileSending() async throws {
        let (host, controller, bearer) = try await Self.peripheralLink(completesPackets: false, bufferCount: 4)
        let server = MdocGATTServerTransport(mode: .peripheralServer, serviceUUID: Self.uuid, bearer: bearer)
        await controller.setCompletesPackets(true)
        try await Self.startSession(controller)
        await controller.setCompletesPackets(false)
        let sender = Task { try await server.send([UInt8](repeating: 7, count: 20_000)) }
        for _ in 0..<4 { _ = await controller.nextACL() }
        try await controller.disconnect(handle: 0x40, reason: .connectionTimeout)
        await #expect(throws: BLEError(.linkClosed, "")) { try await sender.value }
        #expect(try await server.receive() == .disconnected)
        await host.close()
    }

    @Test("SMP pairing requests get Pairing Not Supported; unknown signalling gets Command Reject")
    func smpAndSignalling() async throws {
        let (host, controller, _) = try await Self.peripheralLink()
        try await controller.sendFrame([0x01, 0x03, 0x00, 0x01, 0x10, 0x07, 0x07], channelID: L2CAPChannelID.securityManager, handle: 0x40)
        let smp = try #require(await controller.nextFrame())
        #expect(smp.channelID == L2CAPChannelID.securityManager && smp.payload == [0x05, 0x05])
        try await controller.sendFrame([0x0A, 0x04, 0x02, 0x00, 0x02, 0x00], channelID: L2CAPChannelID.leSignaling, handle: 0x40)
        let reject = try #require(await controller.nextFrame())
        #expect(reject.channelID == L2CAPChannelID.leSignaling && reject.payload == [0x01, 0x04, 0x02, 0x00, 0x00, 0x00])
        // Frames on channels nobody uses are dropped without an answer; the link carries on.
        try await controller.sendFrame([1, 2, 3], channelID: 0x0040, handle: 0x40)
        try await controller.sendFrame([0x12, 0x05, 0x08, 0x00, 0x18, 0x00, 0x28, 0x00, 0x00, 0x00, 0xF4, 0x01],
                                       channelID: L2CAPChannelID.leSignaling, handle: 0x40)
        #expect(await controller.nextFrame()?.payload == [0x01, 0x05, 0x02, 0x00, 0x00, 0x00])
        await host.close()
    }

    @Test("as central: scan, connect to the advertiser of the UUID, accept its connection parameter update")
    func central() async throws {
        let (host, controller) = try await ScriptedController.startedHost()
        let connecting = Task { () async throws -> any ATTBearer in
            try await host.connect(serviceUUID: Self.uuid, timeout: ScriptedController.patience)
        }
        #expect(await controller.command(.leSetScanEnable) != nil)
        let data = AdvertisingData.advertising(serviceUUID: Self.uuid).bytes
        let other = AdvertisingData.advertising(serviceUUID: UUID()).bytes
        for (address, bytes) in [([UInt8](repeating: 0xC1, count: 6), other), (Self.peer, data)] {
            try await controller.event(0x3E, [0x02, 0x01, 0x00, 0x01] + address.reversed() + [UInt8(bytes.count)] + bytes + [0xC0])
        }
        let create = try #require(await controller.command(.leCreateConnection))
        #expect(Array(create.parameters[6..<12]) == Self.peer.reversed())
        try await controller.connect(handle: 0x41, role: .central, peer: Self.peer)
        let bearer = try await connecting.value
        #expect(await controller.commands.filter { $0.opcode == .leSetScanEnable }.map(\.parameters) == [[1, 0], [0, 0]])
        try await controller.sendFrame([0x12, 0x09, 0x08, 0x00, 0x18, 0x00, 0x28, 0x00, 0x00, 0x00, 0xF4, 0x01],
                                       channelID: L2CAPChannelID.leSignaling, handle: 0x41)
        #expect(await controller.nextFrame()?.payload == [0x13, 0x09, 0x02, 0x00, 0x00, 0x00])
        let update = try #require(await controller.command(.leConnectionUpdate))
        #expect(Array(update.parameters[0..<10]) == [0x41, 0x00, 0x18, 0x00, 0x28, 0x00, 0x00, 0x00, 0xF4, 0x01])
        bearer.close()
        #expect(await controller.command(.disconnect)?.parameters == [0x41, 0x00, 0x13])
        await host.close()
    }

    @Test("a connection not made in time is cancelled with LE Create Connection Cancel")
    func connectTimeout() async throws {
        let (host, controller) = try await ScriptedController.startedHost()
        let connecting = Task { () async throws -> any ATTBearer in
            // Long enough for the scan to see the peer on a slow machine; the connection is never made.
            try await host.connect(serviceUUID: Self.uuid, timeout: .seconds(2 * TimeoutScale.factor))
        }
        _ = await controller.command(.leSetScanEnable)
        let data = AdvertisingData.advertising(serviceUUID: Self.uuid).bytes
        try await controller.event(0x3E, [0x02, 0x01, 0x00, 0x01] + Self.peer.reversed() + [UInt8(data.count)] + data + [0xC0])
        _ = await controller.command(.leCreateConnection)
        #expect(await controller.command(.leCreateConnectionCancel, timeout: ScriptedController.answerBound) != nil)
        try await controller.connect(handle: 0x42, role: .central, peer: Self.peer, status: .unknownConnectionIdentifier)
        await #expect(throws: BLEError(.timeout, "")) { try await connecting.value }
        await host.close()
    }

    @Test("nobody advertising the UUID within the timeout is peerNotFound")
    func nobodyThere() async throws {
        let (host, _) = try await ScriptedController.startedHost()
        await #expect(throws: BLEError(.peerNotFound, "")) {
            try await host.connect(serviceUUID: Self.uuid, timeout: .milliseconds(200))
        }
        await host.close()
    }

    @Test("a link nobody waits for is ended at once")
    func unwantedLink() async throws {
        let (host, controller) = try await ScriptedController.startedHost()
        try await controller.connect(handle: 0x43, role: .peripheral, peer: Self.peer)
        #expect(await controller.command(.disconnect)?.parameters == [0x43, 0x00, 0x13])
        await host.close()
    }

    @Test("scan lists advertisers of 128-bit UUIDs with their strongest RSSI")
    func scan() async throws {
        let (host, controller) = try await ScriptedController.startedHost()
        let scanning = Task { try await host.scan(for: .milliseconds(400)) }
        _ = await controller.command(.leSetScanEnable)
        let data = AdvertisingData.advertising(serviceUUID: Self.uuid).bytes
        for rssi: Int8 in [-70, -40, -60] {
            try await controller.event(0x3E, [0x02, 0x01, 0x00, 0x01] + Self.peer.reversed() + [UInt8(data.count)] + data
                                       + [UInt8(bitPattern: rssi)])
        }
        try await controller.event(0x3E, [0x02, 0x01, 0x03, 0x00] + [1, 2, 3, 4, 5, 6] + [3, 0x02, 0x01, 0x06, 0xB0])
        let sightings = try await scanning.value
        #expect(sightings.count == 1)
        #expect(sightings.first?.rssi == -40 && sightings.first?.serviceUUIDs == [Self.uuid] && sightings.first?.isConnectable == true)
        await host.close()
    }

    @Test("malformed L2CAP from the peer ends the link; the bearer reports it")
    func malformedL2CAP() async throws {
        let (host, controller, bearer) = try await Self.peripheralLink()
        try await controller.send(.aclData(HCIACLData(handle: 0x40, packetBoundary: .continuing, data: [1, 2, 3])))
        await #expect(throws: BLEError(.malformedPacket, "")) { try await ATTBearerInbox(bearer).receive() }
        #expect(await controller.command(.disconnect) != nil)
        await host.close()
    }

    @Test("a hardware error or the controller going away stops the host; links end")
    func controllerFailure() async throws {
        let (host, controller, bearer) = try await Self.peripheralLink()
        try await controller.event(0x10, [0x42])
        await #expect(throws: BLEError(.controllerError, "")) { try await ATTBearerInbox(bearer).receive() }
        await #expect(throws: BLEError(.controllerError, "")) { try await host.scan(for: .milliseconds(10)) }

        let (other, otherController, otherBearer) = try await Self.peripheralLink()
        await otherController.closeStream()
        #expect(try await ATTBearerInbox(otherBearer).receive() == nil)
        await #expect(throws: BLEError(.linkClosed, "")) { try await other.advertise(serviceUUID: Self.uuid) }
        await host.close()
    }

    @Test("events split anywhere on the stream are read whole")
    func bytewiseEvents() async throws {
        let (host, controller, bearer) = try await Self.peripheralLink()
        let frame = L2CAPBasicFrame(channelID: Self.att, payload: [0x02, 0x17, 0x00])
        try await controller.sendBytewise(HCIPacket.aclData(HCIACLData(handle: 0x40, packetBoundary: .firstFlushable,
                                                                       data: frame.bytes)).h4Bytes)
        #expect(try await ATTBearerInbox(bearer).receive() == [0x02, 0x17, 0x00])
        await host.close()
    }
}
