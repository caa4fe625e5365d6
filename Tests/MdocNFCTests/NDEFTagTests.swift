import MdocModel
import MdocNFC
import MdocTestSupport
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A channel that answers SELECT of the NDEF application with `6A82` (a locked phone) the
/// first `lockedSelects` times, and passes everything else to the card.
actor LockedChannel: NFCCommandChannel {
    nonisolated let maximumCommandDataLength = 255
    nonisolated let maximumResponseDataLength = 256
    private let inner: CardChannel
    private var lockedSelects: Int
    private(set) var selects = 0

    init(card: NFCCard, lockedSelects: Int) {
        inner = CardChannel(card: card)
        self.lockedSelects = lockedSelects
    }

    func transmit(_ command: CommandAPDU) async throws(NFCError) -> ResponseAPDU {
        if command.ins == CommandAPDU.Instruction.select, command.p1 == 0x04 {
            selects += 1
            if lockedSelects > 0 {
                lockedSelects -= 1
                return ResponseAPDU(statusWord: .fileOrApplicationNotFound)
            }
        }
        return try await inner.transmit(command)
    }
}

@Suite("NFC engagement over a Type 4 Tag: static and negotiated handover (18013-5 8.2.2.1)")
struct NDEFTagTests {
    static func staticSelect() throws -> HandoverSelectMessage {
        let uuid = try #require(UUID(uuidString: Multipaz.bleUUID))
        let ble = try BluetoothLECarrier(options: BleOptions(
            peripheralServerModeSupported: true, centralClientModeSupported: true,
            peripheralServerModeUUID: uuid, centralClientModeUUID: uuid), sender: .mdoc)
        return HandoverSelectMessage(deviceEngagement: hex(Multipaz.deviceEngagement),
                                     carriers: [.bluetoothLE(ble), .nfc(NFCCarrier(maximumCommandDataLength: 0xFFFF, maximumResponseDataLength: 0x10000))])
    }

    static func negotiatedSelect() throws -> HandoverSelectMessage {
        let ble = try BluetoothLECarrier(options: BleOptions(centralClientModeSupported: true), sender: .mdoc)
        return HandoverSelectMessage(deviceEngagement: hex(Multipaz.deviceEngagement), carriers: [.bluetoothLE(ble)])
    }

    /// Multipaz's Service Parameter: WT 0, N_wait 15, NDEF messages up to 65535 bytes.
    static let multipazService = ServiceParameterRecord(minimumWaitingTime: 0, maximumWaitingTimeExtensions: 15, maximumNDEFMessageSize: 0xFFFF)

    /// The exchanges of Multipaz's static handover test: its reader's commands, its card's answers.
    static let staticExchanges: [(String, String)] = [
        ("00A4040007D2760000850101", "9000"),
        ("00A4000C02E103", "9000"),
        ("00B000000F", Multipaz.staticCapabilityContainer + "9000"),
        ("00A4000C02E104", "9000"),
        ("00B0000002", "00FE9000"),
        ("00B00002FE", Multipaz.staticHandoverSelect + "9000"),
    ]

    /// The exchanges of Multipaz's negotiated handover test.
    static let negotiatedExchanges: [(String, String)] = [
        ("00A4040007D2760000850101", "9000"),
        ("00A4000C02E103", "9000"),
        ("00B000000F", Multipaz.negotiatedCapabilityContainer + "9000"),
        ("00A4000C02E104", "9000"),
        ("00B0000002", "001F9000"),
        ("00B000021F", Multipaz.serviceParameter + "9000"),
        ("00D600001B0019" + Multipaz.serviceSelect, "9000"),
        ("00B0000002", "00069000"),
        ("00B0000206", Multipaz.tnepStatus + "9000"),
        ("00D60000AA00A8" + Multipaz.handoverRequest, "9000"),
        ("00B0000002", "00BA9000"),
        ("00B00002BA", Multipaz.negotiatedHandoverSelect + "9000"),
    ]

    @Test("Multipaz's reader against this card, static handover: the same answers byte for byte")
    func multipazReaderStatic() async throws {
        let application = NDEFTagApplication(staticHandover: try Self.staticSelect())
        let card = NFCCard(ndefApplication: application, dataTransferApplication: nil)
        for (command, response) in Self.staticExchanges {
            #expect(await card.respond(to: hex(command)) == hex(response), "\(command)")
        }
        #expect(await application.handover == .nfc(handoverSelect: hex(Multipaz.staticHandoverSelect), handoverRequest: nil))
    }

    @Test("Multipaz's reader against this card, negotiated handover: the same answers byte for byte")
    func multipazReaderNegotiated() async throws {
        let select = try Self.negotiatedSelect()
        let application = NDEFTagApplication(negotiatedHandover: Self.multipazService) { request in
            #expect(request.bytes == hex(Multipaz.handoverRequest))
            return select
        }
        let card = NFCCard(ndefApplication: application, dataTransferApplication: nil)
        for (command, response) in Self.negotiatedExchanges {
            #expect(await card.respond(to: hex(command)) == hex(response), "\(command)")
        }
        #expect(await application.handover == .nfc(handoverSelect: hex(Multipaz.negotiatedHandoverSelect),
                                                    handoverRequest: hex(Multipaz.handoverRequest)))
    }

    @Test("this reader against Multipaz's card's answers, static handover: its commands but for Le on the first SELECT")
    func multipazCardStatic() async throws {
        let channel = ScriptedChannel(Self.staticExchanges.map { hex($0.1) }, maximumCommandDataLength: 65535, maximumResponseDataLength: 65536)
        let engagement = try await NDEFTagReader(channel: channel).engage(handoverRequest: nil)
        #expect(engagement.handoverSelect.bytes == hex(Multipaz.staticHandoverSelect))
        #expect(engagement.deviceEngagement == hex(Multipaz.deviceEngagement))
        #expect(engagement.handover == .nfc(handoverSelect: hex(Multipaz.staticHandoverSelect), handoverRequest: nil))
        // This reader sends Le 00 with the NDEF application's SELECT, as Type 4 Tag 2.0 5.4.2 shows.
        #expect(await channel.commands == [hex(Self.staticExchanges[0].0 + "00")] + Self.staticExchanges.dropFirst().map { hex($0.0) })
    }

    @Test("this reader against Multipaz's card's answers, negotiated handover: its commands but for Le on the first SELECT")
    func multipazCardNegotiated() async throws {
        let channel = ScriptedChannel(Self.negotiatedExchanges.map { hex($0.1) }, maximumCommandDataLength: 65535, maximumResponseDataLength: 65536)
        let request = try HandoverRequestMessage(bytes: hex(Multipaz.handoverRequest))
        let engagement = try await NDEFTagReader(channel: channel).engage(handoverRequest: request)
        #expect(engagement.handoverSelect.bytes == hex(Multipaz.negotiatedHandoverSelect))
        #expect(engagement.handover == .nfc(handoverSelect: hex(Multipaz.negotiatedHandoverSelect), handoverRequest: request.bytes))
        guard case .bluetoothLE(let ble) = engagement.handoverSelect.carriers.first else {
            Issue.record("no BLE carrier")
            return
        }
        #expect(try ble.options(sender: .mdoc) == BleOptions(centralClientModeSupported: true))
        #expect(await channel.commands == [hex(Self.negotiatedExchanges[0].0 + "00")] + Self.negotiatedExchanges.dropFirst().map { hex($0.0) })
    }

    /// A Handover Select message of about `size` bytes: the static one with a padding carrier.
    static func largeSelect(_ size: Int) throws -> HandoverSelectMessage {
        let padding = NDEFRecord(typeNameFormat: .mediaType, type: Array("application/x-padding".utf8), id: [0x50],
                                 payload: [UInt8](repeating: 0xEE, count: size))
        return HandoverSelectMessage(deviceEngagement: hex(Multipaz.deviceEngagement), carriers: try Self.staticSelect().carriers + [.other(padding)])
    }

    @Test("this reader and this card, static handover, in chunks of the channel's and the tag's limits", arguments: [
        (255, 256, NDEFTagApplication.defaultMaximumDataLength, 1000),
        (255, 256, CapabilityContainer.minimumMaximumResponseDataLength, 300),
        (65535, 65536, NDEFTagApplication.defaultMaximumDataLength, 20000),
        (65535, 65536, NDEFTagApplication.defaultMaximumDataLength, 0x7FFF - 2 - 350),
    ])
    func staticInMemory(_ command: Int, _ response: Int, _ tagLimit: Int, _ padding: Int) async throws {
        let select = try Self.largeSelect(padding)
        let application = NDEFTagApplication(staticHandover: select, maximumDataLength: tagLimit)
        let channel = CardChannel(card: NFCCard(ndefApplication: application, dataTransferApplication: nil),
                                  maximumCommandDataLength: command, maximumResponseDataLength: response)
        let engagement = try await NDEFTagReader(channel: channel).engage(handoverRequest: nil)
        #expect(engagement.handoverSelect == select)
        #expect(await application.handover == select.handover(request: nil))
        let reads = await channel.transcript.commands.filter { $0[1] == CommandAPDU.Instruction.readBinary }
        let chunk = min(response, tagLimit)
        #expect(reads.count == 2 + (select.bytes.count + chunk - 1) / chunk)
    }

    @Test("this reader and this card, negotiated handover, the request written in one UPDATE BINARY or in chunks", arguments: [
        (255, 256, NDEFTagApplication.defaultMaximumDataLength, 100),
        (255, 256, NDEFTagApplication.defaultMaximumDataLength, 1000),
        (65535, 65536, 16, 100),
        (65535, 65536, NDEFTagApplication.defaultMaximumDataLength, 20000),
    ])
    func negotiatedInMemory(_ command: Int, _ response: Int, _ tagLimit: Int, _ padding: Int) async throws {
        let uuid = UUID()
        let readerBLE = try BluetoothLECarrier(options: BleOptions(centralClientModeSupported: true, centralClientModeUUID: uuid), sender: .reader)
        let extra = NDEFRecord(typeNameFormat: .mediaType, type: Array("application/x-padding".utf8), id: [0x50],
                               payload: [UInt8](repeating: 0xDD, count: padding))
        let request = HandoverRequestMessage(readerEngagement: hex("a10063312e30"), carriers: [.bluetoothLE(readerBLE), .other(extra)],
                                             collisionResolutionNumber: 0x1234)
        let select = try Self.largeSelect(padding)
        let application = NDEFTagApplication(maximumDataLength: tagLimit) { received in
            #expect(received == request)
            let method = try received.carriers[0].retrievalMethod(sender: .reader)
            #expect(method?.bleOptions?.centralClientModeUUID == uuid)
            return select
        }
        let channel = CardChannel(card: NFCCard(ndefApplication: application, dataTransferApplication: nil),
                                  maximumCommandDataLength: command, maximumResponseDataLength: response)
        let engagement = try await NDEFTagReader(channel: channel).engage(handoverRequest: request)
        #expect(engagement.handoverSelect == select)
        #expect(engagement.handoverRequest == request)
        #expect(await application.handover == engagement.handover)
        let writes = await channel.transcript.commands.filter { $0[1] == CommandAPDU.Instruction.updateBinary }
        let chunk = min(command, tagLimit)
        func updates(_ message: Int) -> Int { 2 + message <= chunk ? 1 : 2 + (message + chunk - 1) / chunk }
        let serviceSelect = NDEFMessage(records: [ServiceSelectRecord().record]).bytes.count
        #expect(writes.count == updates(serviceSelect) + updates(request.bytes.count))
    }

    @Test("the negotiated tag's NDEF file: a Handover Select that fills it, and one byte more", arguments: [0, 1])
    func ndefFileLimit(_ over: Int) async throws {
        let base = try Self.largeSelect(300).bytes.count - 300
        let select = try Self.largeSelect(NDEFTagApplication.maximumNDEFFileSize - 2 - base + over)
        #expect(select.bytes.count == NDEFTagApplication.maximumNDEFFileSize - 2 + over)
        let application = NDEFTagApplication { _ in select }
        let channel = CardChannel(card: NFCCard(ndefApplication: application, dataTransferApplication: nil))
        let request = try HandoverRequestMessage(bytes: hex(Multipaz.handoverRequest))
        let result = await errorCode { try await NDEFTagReader(channel: channel).engage(handoverRequest: request) }
        #expect(result == (over == 0 ? nil : .unexpectedStatus))
        #expect(await application.handover == (over == 0 ? select.handover(request: request) : nil))
    }

    @Test("a locked phone answers 6A82: the reader selects again until it opens")
    func lockedPhone() async throws {
        let clock = ManualClock()
        let card = NFCCard(ndefApplication: NDEFTagApplication(staticHandover: try Self.staticSelect()), dataTransferApplication: nil)
        let channel = LockedChannel(card: card, lockedSelects: 3)
        let reader = NDEFTagReader(channel: channel, clock: clock, selectTimeout: .seconds(1), selectInterval: .milliseconds(100))
        let result = await clock.advancing(by: .milliseconds(100)) {
            await errorCode { try await reader.engage(handoverRequest: nil) }
        }
        #expect(result == nil)
        #expect(await channel.selects == 4)
    }

    @Test("a phone that stays locked: the reader gives up at its bound, and not before")
    func lockedForever() async throws {
        let clock = ManualClock()
        let card = NFCCard(ndefApplication: NDEFTagApplication(staticHandover: try Self.staticSelect()), dataTransferApplication: nil)
        let channel = LockedChannel(card: card, lockedSelects: .max)
        let reader = NDEFTagReader(channel: channel, clock: clock, selectTimeout: .seconds(1), selectInterval: .milliseconds(100))
        let result = await clock.advancing(by: .milliseconds(100)) {
            await errorCode { try await reader.engage(handoverRequest: nil) }
        }
        #expect(result == .timedOut)
        // At +0, +100 ms, ..., +1 s: eleven SELECTs, the last at the bound.
        #expect(await channel.selects == 11)
        #expect(clock.now.offset == .seconds(1))
    }

    @Test("TNEP: the reader reads again after the waiting time while the file is empty, then gives up after N_wait + 1 reads")
    func tnepPolling() async throws {
        var exchanges = Self.negotiatedExchanges.map { hex($0.1) }
        // After the Service Select, the tag's file is empty twice before the status is there.
        exchanges.insert(contentsOf: [hex("00009000"), hex("00009000")], at: 7)
        let clock = ManualClock()
        let channel = ScriptedChannel(exchanges)
        let request = try HandoverRequestMessage(bytes: hex(Multipaz.handoverRequest))
        let reader = NDEFTagReader(channel: channel, clock: clock)
        let result = await clock.advancing(by: .milliseconds(1)) {
            await errorCode { try await reader.engage(handoverRequest: request) }
        }
        #expect(result == nil)
        #expect(await channel.remaining == 0)

        let service = ServiceParameterRecord(minimumWaitingTime: 4, maximumWaitingTimeExtensions: 2, maximumNDEFMessageSize: 0xFFFF)
        let parameter = NDEFMessage(records: [service.record]).bytes
        let stalled = ScriptedChannel(Self.negotiatedExchanges.prefix(4).map { hex($0.1) } + [
            [0x00, UInt8(parameter.count), 0x90, 0x00], parameter + [0x90, 0x00], hex("9000"),
        ] + [[UInt8]](repeating: hex("00009000"), count: 3))
        #expect(service.waitingTime == .milliseconds(1))
        let stalledResult = await clock.advancing(by: .milliseconds(1)) {
            await errorCode { try await NDEFTagReader(channel: stalled, clock: clock).engage(handoverRequest: request) }
        }
        #expect(stalledResult == .timedOut)
        #expect(await stalled.remaining == 0)
    }

    @Test("hostile tags: what the reader refuses", arguments: [
        // NLEN over the CC's maximum NDEF file size.
        (["9000", "9000", "000f207fff7fff0406e1040100 00ff9000", "9000", "01009000"], NFCError.Code.limitExceeded),
        // READ BINARY returns fewer bytes than asked.
        (["9000", "9000", Multipaz.staticCapabilityContainer + "9000", "9000", "00FE9000", "91029000"], .malformed),
        // The CC is not one.
        (["9000", "9000", "000f107fff7fff0406e1047fff00ff9000"], .malformed),
        // The NDEF file holds a text record.
        (["9000", "9000", Multipaz.staticCapabilityContainer + "9000", "9000", "00059000", "D101015400 9000"], .invalidHandover),
        // The NDEF file is empty.
        (["9000", "9000", Multipaz.staticCapabilityContainer + "9000", "9000", "00009000"], .invalidHandover),
        // SELECT of the NDEF application fails otherwise than 6A82.
        (["6D00"], .unexpectedStatus),
        // SELECT of the capability container fails.
        (["9000", "6A82"], .unexpectedStatus),
        // A negotiated handover tag, and no request.
        (["9000", "9000", Multipaz.negotiatedCapabilityContainer + "9000", "9000", "001F9000", Multipaz.serviceParameter + "9000"],
         .invalidHandover),
    ] as [([String], NFCError.Code)])
    func hostileTags(_ script: [String], _ code: NFCError.Code) async {
        let channel = ScriptedChannel(script.map { hex($0) })
        #expect(await errorCode { try await NDEFTagReader(channel: channel).engage(handoverRequest: nil) } == code)
    }

    @Test("a TNEP status other than success, and a tag that refuses the write")
    func tnepFailures() async throws {
        let request = try HandoverRequestMessage(bytes: hex(Multipaz.handoverRequest))
        var failed = Self.negotiatedExchanges.prefix(9).map { hex($0.1) }
        failed[8] = hex("D10201546501 9000")
        #expect(await errorCode { try await NDEFTagReader(channel: ScriptedChannel(failed)).engage(handoverRequest: request) } == .protocolViolation)
        var refused = Self.negotiatedExchanges.prefix(7).map { hex($0.1) }
        refused[6] = hex("6982")
        #expect(await errorCode { try await NDEFTagReader(channel: ScriptedChannel(refused)).engage(handoverRequest: request) } == .unexpectedStatus)
        var readOnly = Self.negotiatedExchanges.prefix(6).map { hex($0.1) }
        readOnly[2] = hex(Multipaz.staticCapabilityContainer + "9000")
        #expect(await errorCode { try await NDEFTagReader(channel: ScriptedChannel(readOnly)).engage(handoverRequest: request) } == .invalidHandover)
    }

    @Test("hostile commands to the tag: each gets its status word and the tag goes on", arguments: [
        ("00B0000002", "6986"),                 // READ BINARY before a file is selected
        ("00A4000C02E105", "6A82"),             // an unknown file
        ("00A4000C03E10300", "6700"),           // a file identifier of 3 bytes
        ("00A4001002E103", "6A86"),             // P2 other than 0C or 00
        ("00A4010002E103", "6A86"),             // P1 01
        ("00D60000020000", "6986"),             // UPDATE BINARY before a file is selected
        ("10B0000002", "6884"),                 // chaining
        ("80B0000002", "6E00"),                 // a proprietary class
        ("00CA000000", "6D00"),                 // GET DATA
    ])
    func hostileCommands(_ command: String, _ status: String) async throws {
        let card = NFCCard(ndefApplication: NDEFTagApplication(staticHandover: try Self.staticSelect()), dataTransferApplication: nil)
        #expect(await card.respond(to: hex("00A4040007D2760000850101")) == hex("9000"))
        #expect(await card.respond(to: hex(command)) == hex(status), "\(command)")
        #expect(await card.respond(to: hex("00A4000C02E103")) == hex("9000"))
        #expect(await card.respond(to: hex("00B000000F")) == hex(Multipaz.staticCapabilityContainer + "9000"))
    }

    @Test("the static tag: read-only, offsets checked, reads capped at MLe, the handover complete once the last byte is read")
    func staticTagLimits() async throws {
        let application = NDEFTagApplication(staticHandover: try Self.staticSelect(), maximumDataLength: 15)
        let card = NFCCard(ndefApplication: application, dataTransferApplication: nil)
        _ = await card.respond(to: hex("00A4040007D2760000850101"))
        #expect(await card.respond(to: hex("00A4000C02E104")) == hex("9000"))
        #expect(await application.handover == nil)
        #expect(await card.respond(to: hex("00D60000020000")) == hex("6982"))
        #expect(await card.respond(to: hex("00B0000000")).count == 15 + 2)
        // The file is the 2-byte length and 254 bytes: 256 in all.
        #expect(await card.respond(to: hex("00B0010100")) == hex("6B00"))
        #expect(await card.respond(to: hex("00B0800000")) == hex("6A86"))
        // The last byte of the file, then past it: nothing more.
        #expect(await card.respond(to: hex("00B000FF05")) == hex("009000"))
        #expect(await card.respond(to: hex("00B0010005")) == hex("9000"))
        #expect(await application.handover == .nfc(handoverSelect: hex(Multipaz.staticHandoverSelect), handoverRequest: nil))
    }

    @Test("the negotiated tag refuses a malformed write, a request before the service select, and leaves the file as it was")
    func negotiatedTagRefusals() async throws {
        let select = try Self.negotiatedSelect()
        let application = NDEFTagApplication(negotiatedHandover: Self.multipazService) { _ in select }
        let card = NFCCard(ndefApplication: application, dataTransferApplication: nil)
        _ = await card.respond(to: hex("00A4040007D2760000850101"))
        _ = await card.respond(to: hex("00A4000C02E104"))
        let initial = await card.respond(to: hex("00B0000021"))
        // Not NDEF.
        #expect(await card.respond(to: hex("00D6000004000201 02")) == hex("6A80"))
        // A Handover Request before the Service Select.
        #expect(await card.respond(to: hex("00D60000AA00A8" + Multipaz.handoverRequest)) == hex("6A80"))
        // A Service Select for another service.
        #expect(await card.respond(to: hex("00D6000007 0005 D1020154 73 00")) == hex("6A80"))
        // NLEN over what was written in one command.
        #expect(await card.respond(to: hex("00D6000004 0010 D102")) == hex("6700"))
        // An offset outside the file.
        #expect(await card.respond(to: hex("00D67FFF020000")) == hex("6B00"))
        #expect(await card.respond(to: hex("00B0000021")) == initial)
        #expect(await application.handover == nil)
    }

    @Test("the negotiated tag: the holder's closure failing answers 6A80")
    func negotiatedSelectorFails() async throws {
        let application = NDEFTagApplication(negotiatedHandover: Self.multipazService) { _ in
            throw NFCError(.invalidHandover, "no carrier in common")
        }
        let card = NFCCard(ndefApplication: application, dataTransferApplication: nil)
        for (command, response) in Self.negotiatedExchanges.prefix(9) {
            #expect(await card.respond(to: hex(command)) == hex(response))
        }
        #expect(await card.respond(to: hex(Self.negotiatedExchanges[9].0)) == hex("6A80"))
        #expect(await application.handover == nil)
    }
}
