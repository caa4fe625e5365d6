import MdocBLE
import MdocNFC
import NIOConcurrencyHelpers

/// The mdoc's side of NFC data retrieval (ISO/IEC 18013-5 8.3.3.1.2) as the link of a session:
/// the messages its `NFCDataTransferApplication` reassembles from the reader's ENVELOPEs are
/// received, and each message sent answers the last one. Ending the session answers a message
/// still waiting with no data, so that the reader's ENVELOPE returns (its status 20 included).
///
/// The reader ends the session over NFC; the mdoc cannot send unasked, so a message sent while
/// none waits for an answer fails with `protocolViolation`.
public final class NFCHolderTransport: MdocTransport {
    /// `nil`: not a BLE link.
    public var mode: MdocBLEMode? { nil }
    /// Told when a message arrives.
    public let inactivity = InactivityWatch()

    private let application: NFCDataTransferApplication
    /// The message received before the transport was made, until ``receive()`` takes it.
    private let first: NIOLockedValueBox<[UInt8]?>

    /// The link of `application`, which received `first` (the message that showed a reader
    /// came over NFC) when given.
    public init(application: NFCDataTransferApplication, first: [UInt8]? = nil) {
        self.application = application
        self.first = NIOLockedValueBox(first)
    }

    /// The most response data bytes one response carries, which stands for BLE's ATT_MTU.
    public var mtu: Int { application.maximumResponseDataLength }

    /// Answers the reader's last message with `message`.
    public func send(_ message: [UInt8]) async throws(BLEError) {
        do throws(NFCError) {
            try await application.send(message)
        } catch {
            throw Self.linkError(error)
        }
    }

    /// The reader's next message, or `.disconnected` once the reader left (the field dropped,
    /// the card was reset or deselected).
    public func receive() async throws(BLEError) -> MdocTransportEvent {
        if let first = first.withLockedValue({ first in defer { first = nil }; return first }) {
            inactivity.chunkArrived()
            return .message(first)
        }
        do throws(NFCError) {
            let message = try await application.receive()
            inactivity.chunkArrived()
            return .message(message)
        } catch where error.code == .connectionLost || error.code == .cancelled {
            return .disconnected
        } catch {
            throw Self.linkError(error)
        }
    }

    /// Answers a message still waiting with no data.
    public func end() async {
        await application.answerWithoutData()
    }

    /// Answers a message still waiting with no data, from a task of its own.
    public func close() {
        let application = self.application
        Task { await application.answerWithoutData() }
    }

    /// The link error of an NFC failure.
    private static func linkError(_ error: NFCError) -> BLEError {
        error.code == .connectionLost
            ? BLEError(.linkClosed, "the reader left: \(error)")
            : BLEError(.protocolViolation, "NFC data retrieval failed: \(error)")
    }
}
