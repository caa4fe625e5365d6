import MdocNFC
import Testing

@Suite("NFC data retrieval: ENVELOPE and GET RESPONSE with data object 53 (18013-5 8.3.3.1.2)")
struct NFCDataTransferTests {
    static let selectMdoc = "00A4040007A0000002480400"

    static func envelope(_ data: ArraySlice<UInt8>, last: Bool, expectedLength: Int) -> [UInt8] {
        CommandAPDU(cla: last ? 0x00 : 0x10, ins: 0xC3, p1: 0, p2: 0, data: Array(data), expectedLength: last ? expectedLength : nil).bytes
    }

    static func getResponse(_ expectedLength: Int) -> [UInt8] {
        CommandAPDU(ins: 0xC0, p1: 0, p2: 0, expectedLength: expectedLength).bytes
    }

    static func response(_ data: ArraySlice<UInt8>, _ status: UInt16) -> [UInt8] {
        ResponseAPDU(data: Array(data), statusWord: StatusWord(rawValue: status)).bytes
    }

    /// A holder that answers each of `requests` (checked) with the matching answer.
    static func holder(_ application: NFCDataTransferApplication, _ exchanges: [([UInt8], [UInt8])]) -> Task<Void, any Error> {
        Task {
            for (request, answer) in exchanges {
                let received = try await application.receive()
                #expect(received == request)
                try await application.send(answer)
            }
        }
    }

    /// Multipaz's happy path: its reader (65272-byte APDU fields) sends 1 KiB and 100 KiB and
    /// gets 2 KiB and 200 KiB. Its commands, and its card's answers where they are the same.
    @Test("Multipaz's reader against this card: a 1 KiB and a 100 KiB request, extended APDUs of 65272 bytes")
    func multipazReaderHappyPath() async throws {
        let application = NFCDataTransferApplication()
        let card = NFCCard(ndefApplication: nil, dataTransferApplication: application)
        let small = [UInt8](repeating: 0, count: 1024)
        let large = [UInt8](repeating: 0, count: 100 * 1024)
        let answer = [UInt8](repeating: 0, count: 200 * 1024)
        let holder = Self.holder(application, [(small, [UInt8](repeating: 0, count: 2048)), (large, answer)])
        #expect(await card.respond(to: hex(Self.selectMdoc)) == hex("9000"))
        let first = Self.envelope(DiscretionaryData.encode(small)[...], last: true, expectedLength: 65272)
        #expect(first.count == 1037)
        let firstAnswer = await card.respond(to: first)
        #expect(firstAnswer.count == 2054)
        #expect(firstAnswer == Self.response(DiscretionaryData.encode([UInt8](repeating: 0, count: 2048))[...], 0x9000))

        let request = DiscretionaryData.encode(large)
        let chained = Self.envelope(request[..<65272], last: false, expectedLength: 0)
        #expect(chained.count == 65279)
        #expect(await card.respond(to: chained) == hex("9000"))
        let last = Self.envelope(request[65272...], last: true, expectedLength: 65272)
        #expect(last.count == 37142)
        let wrapped = DiscretionaryData.encode(answer)
        #expect(await card.respond(to: last) == Self.response(wrapped[..<65272], 0x6100))
        #expect(Self.getResponse(65272).count == 7)
        #expect(await card.respond(to: Self.getResponse(65272)) == Self.response(wrapped[65272..<130544], 0x6100))
        // Multipaz's card answers 6125 here, with 8989 bytes left: 18013-5 asks for 6100 when
        // more than Le + 255 bytes remain, which is what this card says.
        #expect(await card.respond(to: Self.getResponse(65272)) == Self.response(wrapped[130544..<195816], 0x6100))
        #expect(await card.respond(to: Self.getResponse(65272)) == Self.response(wrapped[195816...], 0x9000))
        #expect(wrapped.count - 195816 == 8989)
        try await holder.value
    }

    @Test("Multipaz's reader against this card with 4 KiB APDUs: the same answers until its card's 61XX goes wrong")
    func multipazReaderLowTransceive() async throws {
        let application = NFCDataTransferApplication()
        let card = NFCCard(ndefApplication: nil, dataTransferApplication: application)
        let requestMessage = [UInt8](repeating: 0, count: 10 * 1024)
        let answer = [UInt8](repeating: 0, count: 20 * 1024)
        let holder = Self.holder(application, [(requestMessage, answer)])
        #expect(await card.respond(to: hex(Self.selectMdoc)) == hex("9000"))
        let request = DiscretionaryData.encode(requestMessage)
        #expect(await card.respond(to: Self.envelope(request[..<4089], last: false, expectedLength: 0)) == hex("9000"))
        #expect(await card.respond(to: Self.envelope(request[4089..<8178], last: false, expectedLength: 0)) == hex("9000"))
        let last = Self.envelope(request[8178...], last: true, expectedLength: 4089)
        #expect(last.count == 2075)
        let wrapped = DiscretionaryData.encode(answer)
        var offset = 0
        #expect(await card.respond(to: last) == Self.response(wrapped[0..<4089], 0x6100))
        offset += 4089
        for _ in 0..<3 {
            // The third: Multipaz's card says 6127 with 4128 bytes left; 18013-5 says 6100.
            #expect(await card.respond(to: Self.getResponse(4089)) == Self.response(wrapped[offset..<offset + 4089], 0x6100))
            offset += 4089
        }
        #expect(await card.respond(to: Self.getResponse(4089)) == Self.response(wrapped[offset..<offset + 4089], 0x6127))
        offset += 4089
        #expect(await card.respond(to: Self.getResponse(0x27)) == Self.response(wrapped[offset...], 0x9000))
        #expect(wrapped.count - offset == 39)
        try await holder.value
    }

    @Test("this reader against Multipaz's card's answers: Multipaz's reader's commands byte for byte, the answers whole")
    func multipazCardHappyPath() async throws {
        let small = [UInt8](repeating: 0, count: 1024)
        let large = [UInt8](repeating: 0, count: 100 * 1024)
        let smallAnswer = [UInt8](repeating: 0, count: 2048)
        let answer = [UInt8](repeating: 0, count: 200 * 1024)
        let wrapped = DiscretionaryData.encode(answer)
        let channel = ScriptedChannel([
            hex("9000"), Self.response(DiscretionaryData.encode(smallAnswer)[...], 0x9000), hex("9000"),
            Self.response(wrapped[..<65272], 0x6100), Self.response(wrapped[65272..<130544], 0x6100),
            Self.response(wrapped[130544..<195816], 0x6125),
            // More than the Le of 37 asked for: Multipaz's card sends all that is left.
            Self.response(wrapped[195816...], 0x9000),
        ], maximumCommandDataLength: 65272, maximumResponseDataLength: 65272)
        let reader = NFCDataTransferReader(channel: channel, holderOptions: NFCCarrier(maximumCommandDataLength: 0xFFFF, maximumResponseDataLength: 0x10000))
        try await reader.select()
        #expect(try await reader.exchange(small) == smallAnswer)
        #expect(try await reader.exchange(large) == answer)
        let request = DiscretionaryData.encode(large)
        #expect(await channel.commands == [
            hex(Self.selectMdoc), Self.envelope(DiscretionaryData.encode(small)[...], last: true, expectedLength: 65272),
            Self.envelope(request[..<65272], last: false, expectedLength: 0), Self.envelope(request[65272...], last: true, expectedLength: 65272),
            Self.getResponse(65272), Self.getResponse(65272), hex("00C0000025"),
        ])
    }

    @Test("this reader against Multipaz's card's answers with 4 KiB APDUs: Multipaz's reader's commands byte for byte")
    func multipazCardLowTransceive() async throws {
        let requestMessage = [UInt8](repeating: 0, count: 10 * 1024)
        let answer = [UInt8](repeating: 0, count: 20 * 1024)
        let wrapped = DiscretionaryData.encode(answer)
        let chunks = stride(from: 0, to: wrapped.count, by: 4089).map { wrapped[$0..<min($0 + 4089, wrapped.count)] }
        let channel = ScriptedChannel([hex("9000"), hex("9000"), hex("9000")] + [
            Self.response(chunks[0], 0x6100), Self.response(chunks[1], 0x6100), Self.response(chunks[2], 0x6100),
            Self.response(chunks[3], 0x6127), Self.response(chunks[4], 0x612E), Self.response(chunks[5], 0x9000),
        ], maximumCommandDataLength: 4089, maximumResponseDataLength: 4089)
        let reader = NFCDataTransferReader(channel: channel, holderOptions: NFCCarrier(maximumCommandDataLength: 0xFFFF, maximumResponseDataLength: 0x10000))
        try await reader.select()
        #expect(try await reader.exchange(requestMessage) == answer)
        let request = DiscretionaryData.encode(requestMessage)
        #expect(await channel.commands == [
            hex(Self.selectMdoc), Self.envelope(request[..<4089], last: false, expectedLength: 0),
            Self.envelope(request[4089..<8178], last: false, expectedLength: 0), Self.envelope(request[8178...], last: true, expectedLength: 4089),
            Self.getResponse(4089), Self.getResponse(4089), Self.getResponse(4089), hex("00C0000027"), hex("00C000002E"),
        ])
    }

    /// A message of `count` bytes that differ from one another.
    static func message(_ count: Int, seed: UInt8) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31) ^ seed }
    }

    @Test("this reader and this card through a channel: messages on both sides of every limit", arguments: [
        // Channel command, channel response, card command, card response, short only, request, answer.
        (255, 256, 65535, 65536, false, [1, 124, 125, 252, 253, 507, 508, 1000], [1, 124, 125, 253, 254, 508, 509, 5000]),
        (65535, 65536, 65535, 65536, false, [100, 65532, 65533, 65535 + 65531, 100_000], [100, 65531, 65532, 65536 + 65531, 200_000]),
        (65535, 65536, 65535, 65536, true, [252, 253, 3000], [253, 254, 3000]),
        (65535, 65536, 1000, 500, false, [996, 997, 10_000], [497, 498, 499, 752, 753, 10_000]),
        (1000, 65536, 65535, 300, false, [0, 996, 997, 5000], [0, 296, 297, 551, 552, 5000]),
    ] as [(Int, Int, Int, Int, Bool, [Int], [Int])])
    func inMemory(_ channelCommand: Int, _ channelResponse: Int, _ cardCommand: Int, _ cardResponse: Int, _ shortOnly: Bool,
                  _ requests: [Int], _ answers: [Int]) async throws {
        let application = NFCDataTransferApplication(maximumCommandDataLength: cardCommand, maximumResponseDataLength: cardResponse)
        let channel = CardChannel(card: NFCCard(ndefApplication: nil, dataTransferApplication: application),
                                  maximumCommandDataLength: channelCommand, maximumResponseDataLength: channelResponse)
        let reader = NFCDataTransferReader(channel: channel, holderOptions: application.carrier, shortAPDUsOnly: shortOnly)
        var exchanges: [([UInt8], [UInt8])] = []
        for request in requests {
            for answer in answers {
                exchanges.append((Self.message(request, seed: UInt8(truncatingIfNeeded: request)), Self.message(answer, seed: 0x5A)))
            }
        }
        let holder = Self.holder(application, exchanges)
        try await reader.select()
        for (request, answer) in exchanges {
            #expect(try await reader.exchange(request) == answer, "\(request.count) → \(answer.count)")
        }
        try await holder.value
        let commands = try await channel.transcript.commands.map { (bytes) throws(NFCError) in try CommandAPDU(bytes: bytes) }
        let extended = commands.contains(where: \.isExtended)
        #expect(extended == (!shortOnly && channelCommand > 255 && channelResponse > 256))
        #expect(commands.allSatisfy { $0.data.count <= min(channelCommand, cardCommand) })
        let responses = try await channel.transcript.responses.map { (bytes) throws(NFCError) in try ResponseAPDU(bytes: bytes) }
        #expect(responses.allSatisfy { $0.data.count <= min(channelResponse, cardResponse) })
    }

    @Test("the longest message each side takes, and one byte more")
    func messageLimits() async throws {
        let application = NFCDataTransferApplication(maximumMessageLength: 1000)
        let channel = CardChannel(card: NFCCard(ndefApplication: nil, dataTransferApplication: application))
        let reader = NFCDataTransferReader(channel: channel, holderOptions: nil, maximumMessageLength: 2000)
        let holder = Self.holder(application, [([UInt8](repeating: 1, count: 1000), [UInt8](repeating: 2, count: 2000)),
                                               ([UInt8](repeating: 3, count: 10), [UInt8](repeating: 4, count: 2001))])
        try await reader.select()
        #expect(try await reader.exchange([UInt8](repeating: 1, count: 1000)) == [UInt8](repeating: 2, count: 2000))
        #expect(await errorCode { try await reader.exchange([UInt8](repeating: 1, count: 1001)) } == .unexpectedStatus)
        #expect(await errorCode { try await reader.exchange([UInt8](repeating: 3, count: 10)) } == .limitExceeded)
        holder.cancel()
        #expect(NFCDataTransferReader(channel: channel, holderOptions: nil, maximumMessageLength: .max).maximumMessageLength
            == DiscretionaryData.maximumLength)
    }

    @Test("a receive() waiting before the reader comes gets the first message; the field dropping before any message changes nothing")
    func waitingBeforeTheReader() async throws {
        let application = NFCDataTransferApplication()
        let card = NFCCard(ndefApplication: nil, dataTransferApplication: application)
        let holder = Self.holder(application, [([1, 2, 3], [4, 5])])
        while await !application.isReceiving { await Task.yield() }
        await card.fieldOff()
        let reader = NFCDataTransferReader(channel: CardChannel(card: card), holderOptions: nil)
        try await reader.select()
        #expect(await application.isReceiving)
        #expect(try await reader.exchange([1, 2, 3]) == [4, 5])
        try await holder.value
    }

    @Test("the field drops while the holder waits for the next message: receive() throws connectionLost, then waits for the next session")
    func fieldOffWhileWaiting() async throws {
        let application = NFCDataTransferApplication()
        let card = NFCCard(ndefApplication: nil, dataTransferApplication: application)
        let reader = NFCDataTransferReader(channel: CardChannel(card: card), holderOptions: nil)
        let first = Self.holder(application, [([1], [2])])
        try await reader.select()
        #expect(try await reader.exchange([1]) == [2])
        try await first.value
        let waiting = Task { await errorCode { try await application.receive() } }
        while await !application.isReceiving { await Task.yield() }
        await card.fieldOff()
        #expect(await waiting.value == .connectionLost)
        // A new session: the next message comes through.
        let holder = Self.holder(application, [([1, 2, 3], [4, 5])])
        try await reader.select()
        #expect(try await reader.exchange([1, 2, 3]) == [4, 5])
        try await holder.value
    }

    @Test("after a session with messages ends, the next receive() or send() throws once; a new SELECT ends a session too")
    func endBetweenMessages() async throws {
        let application = NFCDataTransferApplication()
        let card = NFCCard(ndefApplication: nil, dataTransferApplication: application)
        let reader = NFCDataTransferReader(channel: CardChannel(card: card), holderOptions: nil)
        let holder = Self.holder(application, [([1], [2])])
        try await reader.select()
        #expect(try await reader.exchange([1]) == [2])
        try await holder.value
        try await reader.select()
        #expect(await errorCode { try await application.receive() } == .connectionLost)
        #expect(await errorCode { try await application.send([1]) } == .protocolViolation)
        let next = Self.holder(application, [([7], [8])])
        #expect(try await reader.exchange([7]) == [8])
        try await next.value
        await card.reset()
        #expect(await errorCode { try await application.send([1]) } == .connectionLost)
        #expect(await errorCode { try await application.send([1]) } == .protocolViolation)
    }

    @Test("the field drops while the reader's ENVELOPE waits for the holder's answer")
    func fieldOffWhileAnswering() async throws {
        let application = NFCDataTransferApplication()
        let card = NFCCard(ndefApplication: nil, dataTransferApplication: application)
        _ = await card.respond(to: hex(Self.selectMdoc))
        let pending = Task { await card.respond(to: Self.envelope(DiscretionaryData.encode([9])[...], last: true, expectedLength: 256)) }
        #expect(try await application.receive() == [9])
        await card.fieldOff()
        #expect(await pending.value == hex("6F00"))
        #expect(await errorCode { try await application.send([1]) } == .connectionLost)
    }

    @Test("receive() is cancelled with its task; two receive() at once are refused")
    func cancelledReceive() async throws {
        let application = NFCDataTransferApplication()
        let first = Task { await errorCode { try await application.receive() } }
        while await !application.isReceiving { await Task.yield() }
        #expect(await errorCode { try await application.receive() } == .protocolViolation)
        first.cancel()
        #expect(await first.value == .cancelled)
    }

    @Test("hostile commands to the card, each with its status word", arguments: [
        ("00", "6700"),                               // not an APDU
        ("FFC3000001", "6E00"),                       // invalid class
        ("80C3000001", "6E00"),                       // a proprietary class
        ("01C3000001", "6881"),                       // a logical channel
        ("0CC3000001", "6882"),                       // secure messaging
        ("00A4040007A0000002480401", "6A82"),         // an unknown application
        ("00C3000003530100", "6985"),                 // before any application is selected
    ])
    func hostileBeforeSelect(_ command: String, _ status: String) async {
        let card = NFCCard(ndefApplication: nil, dataTransferApplication: NFCDataTransferApplication())
        #expect(await card.respond(to: hex(command)) == hex(status))
    }

    @Test("hostile commands to the mdoc application, each with its status word; the next message still comes through", arguments: [
        ("00C0000000", "6985"),                       // GET RESPONSE with nothing to get
        ("00C0010000", "6A86"),                       // GET RESPONSE with P1
        ("00C000000100", "6700"),                     // GET RESPONSE with data
        ("10C0000000", "6884"),                       // GET RESPONSE chained
        ("00C3010003530100", "6A86"),                 // ENVELOPE with P1
        ("00C3000003540100", "6A80"),                 // not a data object 53
        ("00C300000353800000", "6A80"),               // an indefinite length
        ("00C3000003530200", "6A80"),                 // a data object 53 shorter than it declares
        ("00C30000045301000000", "6700"),             // a data object 53 with bytes after it
        ("00CA000000", "6D00"),                       // GET DATA
        ("00A4000C02E103", "6D00"),                   // SELECT of a file
    ])
    func hostileToApplication(_ command: String, _ status: String) async throws {
        let application = NFCDataTransferApplication()
        let card = NFCCard(ndefApplication: nil, dataTransferApplication: application)
        _ = await card.respond(to: hex(Self.selectMdoc))
        #expect(await card.respond(to: hex(command)) == hex(status), "\(command)")
        let holder = Self.holder(application, [([1, 2], [3])])
        #expect(await card.respond(to: hex("00C300000453020102 00")) == hex("5301039000"))
        try await holder.value
    }

    @Test("ENVELOPEs over the card's limit, and a chain over the longest message, are refused")
    func envelopeLimits() async {
        let application = NFCDataTransferApplication(maximumCommandDataLength: 10, maximumMessageLength: 20)
        let card = NFCCard(ndefApplication: nil, dataTransferApplication: application)
        _ = await card.respond(to: hex(Self.selectMdoc))
        #expect(await card.respond(to: CommandAPDU(cla: 0x10, ins: 0xC3, p1: 0, p2: 0, data: [0x53, 20] + [UInt8](repeating: 0, count: 8)).bytes) == hex("9000"))
        #expect(await card.respond(to: CommandAPDU(cla: 0x10, ins: 0xC3, p1: 0, p2: 0, data: [UInt8](repeating: 0, count: 11)).bytes) == hex("6700"))
        // A declared length over the longest message is refused at once.
        #expect(await card.respond(to: CommandAPDU(cla: 0x10, ins: 0xC3, p1: 0, p2: 0, data: [0x53, 21]).bytes) == hex("6700"))
        #expect(await card.respond(to: CommandAPDU(cla: 0x10, ins: 0xC3, p1: 0, p2: 0, data: [0x53, 0x83, 0xFF, 0xFF, 0xFF]).bytes) == hex("6700"))
    }
}
