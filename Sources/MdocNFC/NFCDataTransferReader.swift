import MdocModel

/// The reader side of NFC data retrieval (ISO/IEC 18013-5 8.3.3.1.2): it selects the mdoc
/// application, then sends each message wrapped in a data object `53` (``DiscretionaryData``)
/// in ENVELOPE commands, chained with CLA `10` on every chunk but the last, and gathers the
/// answer from the last ENVELOPE's response and GET RESPONSE commands while the card answers
/// `61XX` (`6100`: ask for the most the two sides take).
///
/// Extended APDUs are used when the channel carries them, the holder's NFC options allow more
/// than a short APDU does, and they are not turned off; short APDUs otherwise. It does no I/O
/// of its own: commands go through the ``NFCCommandChannel``.
///
/// A card may answer a GET RESPONSE with more bytes than its Le asked for (some
/// implementations do); the reader takes them, within ``maximumMessageLength``.
public struct NFCDataTransferReader: Sendable {
    /// The mdoc application's AID (18013-5 8.3.3.1.2).
    public static let applicationIdentifier: [UInt8] = [0xA0, 0x00, 0x00, 0x02, 0x48, 0x04, 0x00]

    private let channel: any NFCCommandChannel
    /// The most command data bytes of one ENVELOPE.
    public let commandChunkLength: Int
    /// The Le of the last ENVELOPE and of a GET RESPONSE after `6100`.
    public let responseLength: Int
    /// The longest answer the reader takes, in bytes of the message (the data object's header
    /// aside): at most ``DiscretionaryData/maximumLength``.
    public let maximumMessageLength: Int

    /// A reader sending through `channel` to a holder whose NFC carrier record (or NFC retrieval
    /// options) says `holderOptions`; short APDUs only when `shortAPDUsOnly` or when either
    /// side cannot carry extended ones. Answers longer than `maximumMessageLength` are refused.
    public init(channel: any NFCCommandChannel, holderOptions: NFCCarrier?, shortAPDUsOnly: Bool = false,
                maximumMessageLength: Int = DiscretionaryData.maximumLength) {
        self.channel = channel
        let holderCommand = holderOptions?.maximumCommandDataLength ?? CommandAPDU.maximumShortDataLength
        let holderResponse = holderOptions?.maximumResponseDataLength ?? CommandAPDU.maximumShortExpectedLength
        let extended = !shortAPDUsOnly
            && channel.maximumCommandDataLength > CommandAPDU.maximumShortDataLength
            && channel.maximumResponseDataLength > CommandAPDU.maximumShortExpectedLength
            && (holderCommand > CommandAPDU.maximumShortDataLength || holderResponse > CommandAPDU.maximumShortExpectedLength)
        let commandLimit = extended ? CommandAPDU.maximumExtendedDataLength : CommandAPDU.maximumShortDataLength
        let responseLimit = extended ? CommandAPDU.maximumExtendedExpectedLength : CommandAPDU.maximumShortExpectedLength
        commandChunkLength = max(1, min(commandLimit, channel.maximumCommandDataLength, holderCommand))
        responseLength = max(1, min(responseLimit, channel.maximumResponseDataLength, holderResponse))
        self.maximumMessageLength = min(max(0, maximumMessageLength), DiscretionaryData.maximumLength)
    }

    /// Selects the mdoc application.
    public func select() async throws(NFCError) {
        let response = try await channel.transmit(.select(application: Self.applicationIdentifier))
        guard response.statusWord == .success else {
            throw NFCError(.unexpectedStatus, "SELECT of the mdoc application answered \(response.statusWord)")
        }
    }

    /// Sends one 18013-5 message (a SessionEstablishment or SessionData) and returns the
    /// holder's answer, both without the data object `53` around them; an empty answer when
    /// the holder answered with no data (`9000` alone), as to a message that ended the session.
    public func exchange(_ message: [UInt8]) async throws(NFCError) -> [UInt8] {
        guard message.count <= DiscretionaryData.maximumLength else {
            throw NFCError(.limitExceeded, "a message of \(message.count) bytes, over the \(DiscretionaryData.maximumLength) a data object 53 holds")
        }
        let wrapped = DiscretionaryData.encode(message)
        var sent = 0
        var response: ResponseAPDU
        repeat {
            let count = min(commandChunkLength, wrapped.count - sent)
            let last = sent + count == wrapped.count
            let command = CommandAPDU(cla: last ? 0x00 : CommandAPDU.chainingClass, ins: CommandAPDU.Instruction.envelope, p1: 0, p2: 0,
                                      data: Array(wrapped[sent..<sent + count]), expectedLength: last ? responseLength : nil)
            response = try await channel.transmit(command)
            sent += count
            if !last, response.statusWord != .success {
                throw NFCError(.unexpectedStatus, "a chained ENVELOPE answered \(response.statusWord)")
            }
        } while sent < wrapped.count
        var answer: [UInt8] = []
        let limit = maximumMessageLength + DiscretionaryData.maximumHeaderLength
        while true {
            guard answer.count <= limit - response.data.count else {
                throw NFCError(.limitExceeded, "the answer runs over \(maximumMessageLength) bytes")
            }
            answer += response.data
            if response.statusWord == .success { break }
            guard response.statusWord.isBytesAvailable else {
                throw NFCError(.unexpectedStatus, "the answer to ENVELOPE or GET RESPONSE was \(response.statusWord)")
            }
            if let declared = try DiscretionaryData.declaredValueLength(answer), declared > maximumMessageLength {
                throw NFCError(.limitExceeded, "the answer declares \(declared) bytes, over \(maximumMessageLength)")
            }
            let expected = response.statusWord.sw2 == 0 ? responseLength : Int(response.statusWord.sw2)
            let next = try await channel.transmit(CommandAPDU(ins: CommandAPDU.Instruction.getResponse, p1: 0, p2: 0, expectedLength: expected))
            guard !next.data.isEmpty else {
                throw NFCError(.protocolViolation, "GET RESPONSE returned no data and status \(next.statusWord)")
            }
            response = next
        }
        if answer.isEmpty { return [] }
        let message = try DiscretionaryData.decode(answer)
        guard message.count <= maximumMessageLength else {
            throw NFCError(.limitExceeded, "an answer of \(message.count) bytes, over \(maximumMessageLength)")
        }
        return message
    }
}
