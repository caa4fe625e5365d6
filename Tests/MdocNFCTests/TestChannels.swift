import MdocNFC

/// The commands and responses that crossed a channel, as bytes, in order.
actor Transcript {
    private(set) var commands: [[UInt8]] = []
    private(set) var responses: [[UInt8]] = []

    func record(_ command: [UInt8], _ response: [UInt8]) {
        commands.append(command)
        responses.append(response)
    }
}

/// A channel to an ``NFCCard`` in the same process, through its raw-bytes entry as a virtual
/// card connection would call it. It refuses commands and responses over its limits, so a test
/// fails when the reader or the card breaks them.
struct CardChannel: NFCCommandChannel {
    let card: NFCCard
    let maximumCommandDataLength: Int
    let maximumResponseDataLength: Int
    let transcript = Transcript()

    init(card: NFCCard, maximumCommandDataLength: Int = 255, maximumResponseDataLength: Int = 256) {
        self.card = card
        self.maximumCommandDataLength = maximumCommandDataLength
        self.maximumResponseDataLength = maximumResponseDataLength
    }

    func transmit(_ command: CommandAPDU) async throws(NFCError) -> ResponseAPDU {
        guard command.data.count <= maximumCommandDataLength, (command.expectedLength ?? 0) <= maximumResponseDataLength else {
            throw NFCError(.transmissionFailed, "the test channel carries \(maximumCommandDataLength)/\(maximumResponseDataLength) bytes: \(command)")
        }
        let bytes = await card.respond(to: command.bytes)
        await transcript.record(command.bytes, bytes)
        let response = try ResponseAPDU(bytes: bytes)
        guard response.data.count <= maximumResponseDataLength else {
            throw NFCError(.transmissionFailed, "the card answered \(response.data.count) bytes")
        }
        return response
    }
}

/// A channel that answers each command with the next response of a script, whatever the
/// command, and records the commands: a card of another implementation, replayed.
actor ScriptedChannel: NFCCommandChannel {
    nonisolated let maximumCommandDataLength: Int
    nonisolated let maximumResponseDataLength: Int
    private var script: [[UInt8]]
    private(set) var commands: [[UInt8]] = []

    init(_ script: [[UInt8]], maximumCommandDataLength: Int = 255, maximumResponseDataLength: Int = 256) {
        self.script = script
        self.maximumCommandDataLength = maximumCommandDataLength
        self.maximumResponseDataLength = maximumResponseDataLength
    }

    func transmit(_ command: CommandAPDU) async throws(NFCError) -> ResponseAPDU {
        commands.append(command.bytes)
        guard !script.isEmpty else {
            throw NFCError(.connectionLost, "the script has no response for \(command)")
        }
        return try ResponseAPDU(bytes: script.removeFirst())
    }

    var remaining: Int { script.count }
}
