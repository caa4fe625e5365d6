/// The card side of NFC data retrieval (ISO/IEC 18013-5 8.3.3.1.2), the mdoc application: it
/// reassembles the reader's ENVELOPE chains into whole messages for the holder, and answers
/// with the holder's message in chunks, `61XX` announcing what GET RESPONSE can fetch, within
/// the limits it advertises in its NFC carrier record (``carrier``).
///
/// The holder's protocol driver sees whole messages: ``receive()`` returns the next one from
/// the reader, ``send(_:)`` answers it; the reader's last ENVELOPE waits for that answer.
///
/// A session begins when the reader selects the application. It ends when the field drops
/// (``NFCCard/fieldOff()``), the card is reset, or the reader selects an application again:
/// the ``receive()`` or ``send(_:)`` then waiting, or else the next one called, throws
/// `connectionLost` once, provided the session had delivered a message; then ``receive()``
/// waits for the first message of the next session.
public actor NFCDataTransferApplication {
    /// The most command data bytes one ENVELOPE may carry, as advertised.
    public nonisolated let maximumCommandDataLength: Int
    /// The most response data bytes one response carries, as advertised.
    public nonisolated let maximumResponseDataLength: Int
    /// The longest message the application takes from the reader.
    public nonisolated let maximumMessageLength: Int

    private var incoming: [UInt8] = []
    private var inbox: [UInt8]?
    private var receiver: (id: Int, continuation: CheckedContinuation<Result<[UInt8], NFCError>, Never>)?
    private var nextReceiverID = 0
    private var pendingAnswer: (expectedLength: Int, continuation: CheckedContinuation<ResponseAPDU, Never>)?
    private var outgoing: [UInt8] = []
    private var outgoingOffset = 0
    private var delivered = false
    private var pendingEnd: NFCError?

    /// An application taking ENVELOPEs of up to `maximumCommandDataLength` bytes (1 to 65535)
    /// and answering with up to `maximumResponseDataLength` bytes (1 to 65536) per response,
    /// accepting messages of at most `maximumMessageLength` bytes. Out-of-range limits are a
    /// programming error.
    public init(maximumCommandDataLength: Int = CommandAPDU.maximumExtendedDataLength,
                maximumResponseDataLength: Int = CommandAPDU.maximumExtendedExpectedLength,
                maximumMessageLength: Int = DiscretionaryData.maximumLength) {
        precondition((1...CommandAPDU.maximumExtendedDataLength).contains(maximumCommandDataLength))
        precondition((1...CommandAPDU.maximumExtendedExpectedLength).contains(maximumResponseDataLength))
        precondition((0...DiscretionaryData.maximumLength).contains(maximumMessageLength))
        self.maximumCommandDataLength = maximumCommandDataLength
        self.maximumResponseDataLength = maximumResponseDataLength
        self.maximumMessageLength = maximumMessageLength
    }

    /// The NFC carrier record advertising this application's limits, for the Handover Select
    /// message (18013-5 8.2.2.1).
    public nonisolated var carrier: NFCCarrier {
        NFCCarrier(maximumCommandDataLength: maximumCommandDataLength, maximumResponseDataLength: maximumResponseDataLength)
    }

    /// The next whole message from the reader, without its data object `53`. Throws
    /// `connectionLost` when the session ended (see the type's description), `cancelled` when
    /// the task is, and `protocolViolation` when another receive already waits.
    public func receive() async throws(NFCError) -> [UInt8] {
        if let end = pendingEnd {
            pendingEnd = nil
            throw end
        }
        if let message = inbox {
            inbox = nil
            return message
        }
        guard receiver == nil else {
            throw NFCError(.protocolViolation, "another receive() waits already")
        }
        let id = nextReceiverID
        nextReceiverID += 1
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<[UInt8], NFCError>, Never>) in
                if Task.isCancelled {
                    continuation.resume(returning: .failure(NFCError(.cancelled, "receive() was cancelled")))
                } else {
                    receiver = (id, continuation)
                }
            }
        } onCancel: {
            Task { await self.cancelReceive(id) }
        }
        return try result.get()
    }

    /// Whether a ``receive()`` waits for a message (for tests).
    package var isReceiving: Bool { receiver != nil }

    private func cancelReceive(_ id: Int) {
        guard let receiver, receiver.id == id else { return }
        self.receiver = nil
        receiver.continuation.resume(returning: .failure(NFCError(.cancelled, "receive() was cancelled")))
    }

    /// Answers the message ``receive()`` returned with `message`: the reader's last ENVELOPE
    /// gets its first chunk. Throws `connectionLost` when the session ended, and
    /// `protocolViolation` when no message waits for an answer.
    public func send(_ message: [UInt8]) async throws(NFCError) {
        if let end = pendingEnd {
            pendingEnd = nil
            throw end
        }
        guard let pending = pendingAnswer else {
            throw NFCError(.protocolViolation, "no message from the reader waits for an answer")
        }
        guard message.count <= DiscretionaryData.maximumLength else {
            throw NFCError(.limitExceeded, "an answer of \(message.count) bytes, over the \(DiscretionaryData.maximumLength) a data object 53 holds")
        }
        pendingAnswer = nil
        outgoing = DiscretionaryData.encode(message)
        outgoingOffset = 0
        pending.continuation.resume(returning: nextChunk(expectedLength: pending.expectedLength))
    }

    /// Answers the message ``receive()`` returned with no data (`9000` alone), as the mdoc does
    /// to one that ended the session (SessionData with status 20, 9.1.1.4): the reader's last
    /// ENVELOPE returns without a message. Nothing when no message waits for an answer.
    public func answerWithoutData() {
        guard let pending = pendingAnswer else { return }
        pendingAnswer = nil
        outgoing = []
        outgoingOffset = 0
        pending.continuation.resume(returning: ResponseAPDU(statusWord: .success))
    }

    /// Starts a session: the reader selected the application. A session that had delivered a
    /// message ends first.
    package func select() {
        end(NFCError(.connectionLost, "the reader selected the application again"))
    }

    /// Ends the session with `error` (the field dropped, the card was reset, the reader selected
    /// another application): the holder learns of it only when the session had delivered a
    /// message, so a receive() waiting for the first message of a session goes on waiting.
    package func end(_ error: NFCError) {
        incoming = []
        inbox = nil
        outgoing = []
        outgoingOffset = 0
        if let pending = pendingAnswer {
            pendingAnswer = nil
            pending.continuation.resume(returning: ResponseAPDU(statusWord: .noPreciseDiagnosis))
        }
        guard delivered else { return }
        delivered = false
        if let receiver {
            self.receiver = nil
            receiver.continuation.resume(returning: .failure(error))
        } else {
            pendingEnd = error
        }
    }

    /// The response to `command`, sent while the application is selected: ENVELOPE or GET
    /// RESPONSE.
    public func respond(to command: CommandAPDU) async -> ResponseAPDU {
        guard command.cla & ~CommandAPDU.chainingClass == 0 else { return ResponseAPDU(statusWord: .classNotSupported) }
        switch command.ins {
        case CommandAPDU.Instruction.envelope:
            return await envelope(command)
        case CommandAPDU.Instruction.getResponse:
            guard command.cla == 0x00 else { return ResponseAPDU(statusWord: .commandChainingNotSupported) }
            guard command.p1 == 0, command.p2 == 0 else { return ResponseAPDU(statusWord: .incorrectParameters) }
            guard command.data.isEmpty else { return ResponseAPDU(statusWord: .wrongLength) }
            guard outgoingOffset < outgoing.count else { return ResponseAPDU(statusWord: .conditionsOfUseNotSatisfied) }
            return nextChunk(expectedLength: command.expectedLength ?? 0)
        default:
            return ResponseAPDU(statusWord: .instructionNotSupported)
        }
    }

    /// One ENVELOPE of a chain: kept until the last, whose message goes to the holder and whose
    /// response is the holder's answer.
    private func envelope(_ command: CommandAPDU) async -> ResponseAPDU {
        guard pendingAnswer == nil else { return ResponseAPDU(statusWord: .conditionsOfUseNotSatisfied) }
        // A refused ENVELOPE ends the chain it was part of.
        guard command.p1 == 0, command.p2 == 0 else {
            incoming = []
            return ResponseAPDU(statusWord: .incorrectParameters)
        }
        guard !command.data.isEmpty, command.data.count <= maximumCommandDataLength else {
            incoming = []
            return ResponseAPDU(statusWord: .wrongLength)
        }
        outgoing = []
        outgoingOffset = 0
        let limit = maximumMessageLength + DiscretionaryData.maximumHeaderLength
        guard command.data.count <= limit - incoming.count else {
            incoming = []
            return ResponseAPDU(statusWord: .wrongLength)
        }
        incoming += command.data
        do {
            if let declared = try DiscretionaryData.declaredLength(incoming),
               try DiscretionaryData.declaredValueLength(incoming) ?? 0 > maximumMessageLength || declared < incoming.count {
                incoming = []
                return ResponseAPDU(statusWord: .wrongLength)
            }
        } catch {
            incoming = []
            return ResponseAPDU(statusWord: .incorrectData)
        }
        guard command.cla == 0x00 else { return ResponseAPDU(statusWord: .success) }
        let message: [UInt8]
        do {
            message = try DiscretionaryData.decode(incoming)
        } catch {
            incoming = []
            return ResponseAPDU(statusWord: .incorrectData)
        }
        incoming = []
        delivered = true
        if let receiver {
            self.receiver = nil
            receiver.continuation.resume(returning: .success(message))
        } else {
            inbox = message
        }
        return await withCheckedContinuation { continuation in
            pendingAnswer = (command.expectedLength ?? 0, continuation)
        }
    }

    /// The next chunk of the answer for an Le of `expectedLength` (18013-5 8.3.3.1.2): all that
    /// is left with `9000` when it fits, else as many bytes as Le (and the advertised maximum)
    /// allow with `61XX`, XX the bytes left when 255 or fewer, else `6100`.
    private func nextChunk(expectedLength: Int) -> ResponseAPDU {
        let available = outgoing.count - outgoingOffset
        let count = min(expectedLength, maximumResponseDataLength)
        if count >= available {
            let data = Array(outgoing[outgoingOffset...])
            outgoing = []
            outgoingOffset = 0
            return ResponseAPDU(data: data, statusWord: .success)
        }
        let data = Array(outgoing[outgoingOffset..<outgoingOffset + count])
        outgoingOffset += count
        let left = available - count
        return ResponseAPDU(data: data, statusWord: left <= 0xFF ? .bytesAvailable(UInt8(left)) : .moreDataAvailable)
    }
}
