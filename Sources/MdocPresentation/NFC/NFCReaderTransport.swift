import MdocBLE
import MdocNFC

/// The reader's side of NFC data retrieval (ISO/IEC 18013-5 8.3.3.1.2) as the link of a
/// session: each message sent goes out in ENVELOPE commands from a task of the transport, and
/// the mdoc's answer, gathered with GET RESPONSE, is the next message received. An answer with
/// no data (the mdoc's to a message that ended the session) is received as `.ended`.
///
/// The card stays its owner's: closing the transport ends its task but does not disconnect the
/// card. Failures come as `BLEError`, the drivers' link error whatever the bearer:
/// `linkClosed` for a card that went or no longer answers, `protocolViolation` for an answer
/// that breaks the rules.
public actor NFCReaderTransport: MdocTransport {
    /// `nil`: not a BLE link.
    public nonisolated var mode: MdocBLEMode? { nil }
    /// Told when an answer arrives, a whole message at once.
    public nonisolated let inactivity = InactivityWatch()

    private let reader: NFCDataTransferReader
    private var exchange: Task<Void, Never>?
    private var answers: [Result<MdocTransportEvent, BLEError>] = []
    private var waiter: CheckedContinuation<Result<MdocTransportEvent, BLEError>, Never>?
    private var isClosed = false

    /// The link of `reader`, whose mdoc application is selected.
    public init(reader: NFCDataTransferReader) {
        self.reader = reader
    }

    /// The most command data bytes one ENVELOPE carries, which stands for BLE's ATT_MTU in
    /// progress and captures.
    public var mtu: Int { reader.commandChunkLength }

    /// Starts sending `message`; its answer is the next message received. Throws
    /// `linkClosed` once closed, and `protocolViolation` while the last message waits for its
    /// answer (NFC carries one message at a time, each answered).
    public func send(_ message: [UInt8]) async throws(BLEError) {
        guard !isClosed else { throw BLEError(.linkClosed, "the NFC link is closed") }
        guard exchange == nil else {
            throw BLEError(.protocolViolation, "a message over NFC still waits for its answer; NFC carries one at a time")
        }
        let reader = self.reader
        exchange = Task {
            let result: Result<MdocTransportEvent, BLEError>
            do throws(NFCError) {
                let answer = try await reader.exchange(message)
                result = .success(answer.isEmpty ? .ended : .message(answer))
            } catch {
                result = .failure(Self.linkError(error))
            }
            self.answered(result)
        }
    }

    /// The answer to the last message sent, `.ended` for an answer without data, or
    /// `.disconnected` once closed.
    public func receive() async throws(BLEError) -> MdocTransportEvent {
        if !answers.isEmpty { return try answers.removeFirst().get() }
        if isClosed { return .disconnected }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<MdocTransportEvent, BLEError>, Never>) in
                if Task.isCancelled {
                    continuation.resume(returning: .success(.disconnected))
                } else {
                    waiter = continuation
                }
            }
        } onCancel: {
            Task { await self.shutDown() }
        }
        return try result.get()
    }

    /// Waits for the answer to the last message (the mdoc answers one that ended the session
    /// without data), then closes; the drivers bound the wait.
    public func end() async {
        await exchange?.value
        shutDown()
    }

    /// Closes the link: a waiting receive gets `.disconnected`, and a message still on its way
    /// is abandoned.
    public nonisolated func close() {
        Task { await self.shutDown() }
    }

    private func answered(_ result: Result<MdocTransportEvent, BLEError>) {
        exchange = nil
        inactivity.chunkArrived()
        deliver(result)
    }

    private func deliver(_ result: Result<MdocTransportEvent, BLEError>) {
        if let waiter {
            self.waiter = nil
            waiter.resume(returning: result)
        } else {
            answers.append(result)
        }
    }

    private func shutDown() {
        guard !isClosed else { return }
        isClosed = true
        exchange?.cancel()
        if let waiter {
            self.waiter = nil
            waiter.resume(returning: .success(.disconnected))
        }
    }

    /// The link error of an NFC failure.
    private static func linkError(_ error: NFCError) -> BLEError {
        switch error.code {
        case .connectionLost, .transmissionFailed: BLEError(.linkClosed, "the card is gone or no longer answers: \(error)")
        case .timedOut: BLEError(.timeout, "\(error)")
        case .cancelled: BLEError(.linkClosed, "the exchange was cancelled: \(error)")
        default: BLEError(.protocolViolation, "NFC data retrieval failed: \(error)")
        }
    }
}
