import MdocBLE
import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel
import MdocNFC
import MdocPresentation
import MdocSession
import MdocText

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One live session kept for offline study (`--save-session DIR`): the engagement as it was
/// shown, SessionTranscriptBytes as the session built them, this side's ephemeral private key,
/// and every message exactly as it went over the link (ISO/IEC 18013-5 9.1.1.4, 8.3.3.1.1.6),
/// with the plaintext each one decrypts to (9.1.1.5).
///
/// Nothing is ever re-encoded: a capture stores and replays the bytes that were exchanged, so a
/// replay verifies exactly what the live session verified. docs/session-capture.md describes
/// the directory and its index.
public struct SessionCapture: Sendable {
    /// The name of the index file in a capture directory.
    public static let indexFileName = "index.json"
    /// The `format` member of every index.
    public static let format = "swift-mdoc session capture"
    /// The version of the index this toolkit writes and reads.
    public static let version = 1
    /// The largest file read from a capture directory, 8 MiB: twice the largest message a
    /// session accepts (`MessageReassembler.maximumMessageSize`), which bounds every message
    /// and plaintext with room to spare.
    public static let maximumFileSize = 2 * MessageReassembler.maximumMessageSize
    /// The most messages read from one capture, 256. A session of this toolkit exchanges three
    /// or four; the bound keeps a hostile index from naming files without end.
    public static let maximumMessageCount = 256

    /// This side of the session.
    public var role: SessionRole
    /// The program and version that ran the session, such as `mdoc-reader 0.1.0`.
    public var program: String
    /// The `--transport` the session ran over.
    public var transport: String
    /// The BLE mode of the session; `nil` when it never got that far.
    public var mode: MdocBLEMode?
    /// The link's ATT_MTU; `nil` before the session started.
    public var mtu: Int?
    /// When the session started and ended.
    public var started: Date, ended: Date
    /// DeviceEngagement as shown or scanned: the bytes inside DeviceEngagementBytes.
    public var deviceEngagement: [UInt8]
    /// The `mdoc:` URI of the engagement.
    public var engagementURI: String
    /// SessionTranscriptBytes (`#6.24(bstr .cbor SessionTranscript)`, 9.1.5.1) as the session
    /// built them; `nil` in an mdoc's capture of a session that failed before a
    /// SessionEstablishment arrived, since the transcript holds the reader's EReaderKeyBytes.
    public var sessionTranscriptBytes: [UInt8]?
    /// This side's ephemeral private key (EReaderKey or EDeviceKey): it decrypts the session.
    public var ephemeralKey: PrivateKey
    /// Every message, in the order it went over the link.
    public var messages: [LinkMessage]
    /// How the session ended, in words.
    public var outcome: String
    /// The exit status the program ended with.
    public var exitStatus: Int32
    /// The time the response was verified at; `nil` without a response.
    public var verificationTime: Date?
    /// The verification report (`--json`) of the response; `nil` without a response.
    public var report: JSONValue?
    /// The APDUs of an NFC engagement and NFC data retrieval, as the reader exchanged them;
    /// `nil` for a session without NFC or captured on the mdoc's side.
    public var apduTrace: APDUTrace?

    /// A capture of a session of `role`; see the properties.
    public init(
        role: SessionRole, program: String, transport: String, mode: MdocBLEMode?, mtu: Int?, started: Date, ended: Date,
        deviceEngagement: [UInt8], engagementURI: String, sessionTranscriptBytes: [UInt8]?, ephemeralKey: PrivateKey,
        messages: [LinkMessage], outcome: String, exitStatus: Int32, verificationTime: Date?, report: JSONValue?
    ) {
        self.role = role
        self.program = program
        self.transport = transport
        self.mode = mode
        self.mtu = mtu
        self.started = started
        self.ended = ended
        self.deviceEngagement = deviceEngagement
        self.engagementURI = engagementURI
        self.sessionTranscriptBytes = sessionTranscriptBytes
        self.ephemeralKey = ephemeralKey
        self.messages = messages
        self.outcome = outcome
        self.exitStatus = exitStatus
        self.verificationTime = verificationTime
        self.report = report
    }

    /// A message of the capture with what it carries.
    public struct OpenedMessage: Sendable {
        /// The message as it went over the link.
        public var message: LinkMessage
        /// `true` when the mdoc reader sent it.
        public var fromReader: Bool
        /// `SessionEstablishment` (the reader's first message) or `SessionData`.
        public var structure: String
        /// The decrypted `data`: a DeviceRequest from the reader, a DeviceResponse from the mdoc;
        /// `nil` when the message has no data or it did not decrypt.
        public var plaintext: [UInt8]?
        /// The status of SessionData (9.1.1.4), when it has one.
        public var status: UInt64?
        /// Why the message has no plaintext although it should, or does not decode.
        public var problem: String?

        /// What the plaintext is: `DeviceRequest` from the reader, `DeviceResponse` from the mdoc.
        public var plaintextStructure: String { fromReader ? "DeviceRequest" : "DeviceResponse" }
    }

    /// Whether the mdoc reader sent `message`.
    func fromReader(_ message: LinkMessage) -> Bool {
        (role == .reader) == (message.direction == .sent)
    }

    /// Every message with its structure and plaintext, decrypted with session keys derived
    /// again from ``ephemeralKey``, the peer's ephemeral public key and the stored
    /// ``sessionTranscriptBytes`` (9.1.1.5), each direction with its own counter from 1: the
    /// n-th message a side sent carries counter n, whether or not the ones before it decrypt. A
    /// message that does not decode or decrypt says why in its `problem`.
    public func openedMessages() -> [OpenedMessage] {
        let keys: Result<SessionKeys, SessionCaptureError>
        do {
            keys = .success(try sessionKeys())
        } catch {
            keys = .failure(error)
        }
        // The counter of the next message with data from the reader and from the mdoc.
        var readerCounter: UInt32 = 1
        var mdocCounter: UInt32 = 1
        var opened: [OpenedMessage] = []
        for (index, message) in messages.enumerated() {
            let byReader = fromReader(message)
            var entry = OpenedMessage(
                message: message, fromReader: byReader, structure: index == 0 && byReader ? "SessionEstablishment" : "SessionData",
                plaintext: nil, status: nil, problem: nil)
            let sealed: [UInt8]?
            do {
                if entry.structure == "SessionEstablishment" {
                    sealed = try SessionEstablishment(encoded: message.bytes).data
                } else {
                    let data = try SessionData(encoded: message.bytes)
                    sealed = data.data
                    entry.status = data.status.map { UInt64($0.rawValue) }
                }
            } catch {
                entry.problem = "not a \(entry.structure): \(error)"
                opened.append(entry)
                continue
            }
            if let sealed {
                let counter = byReader ? readerCounter : mdocCounter
                switch keys {
                case .success(let keys):
                    // The mdoc's side decrypts what the reader sent (SKReader), the reader's
                    // side what the mdoc sent (SKDevice).
                    var decryption = SessionEncryption(
                        role: byReader ? .mdoc : .reader, keys: keys, sendCounter: 1, receiveCounter: counter)
                    do {
                        entry.plaintext = try decryption.decrypt(sealed)
                    } catch {
                        entry.problem = error.code == .decryptionFailed
                            ? "does not decrypt with \(byReader ? "SKReader" : "SKDevice") at message counter \(counter) (9.1.1.5): the message is altered, or the capture's key and transcript are not of its session"
                            : "\(error)"
                    }
                case .failure(let error):
                    entry.problem = "\(error)"
                }
                if byReader { readerCounter &+= 1 } else { mdocCounter &+= 1 }
            }
            opened.append(entry)
        }
        return opened
    }

    /// The session keys from ``ephemeralKey`` and the peer's key: EDeviceKey of the engagement
    /// for a reader, EReaderKey of the SessionEstablishment for an mdoc (9.1.1.5).
    func sessionKeys() throws(SessionCaptureError) -> SessionKeys {
        guard let sessionTranscriptBytes else {
            throw SessionCaptureError(
                .inconsistent, file: Self.indexFileName, "no SessionTranscriptBytes to derive the session keys with (9.1.5.1)")
        }
        let peerKey: PublicKey
        do {
            switch role {
            case .reader:
                peerKey = try DeviceEngagement(encoded: deviceEngagement).security.eDeviceKeyBytes.value.publicKey()
            case .mdoc:
                guard let first = messages.first, first.direction == .received else {
                    throw SessionCaptureError(.inconsistent, file: Self.indexFileName, "no SessionEstablishment was received")
                }
                peerKey = try SessionEstablishment(encoded: first.bytes).eReaderKey.value.publicKey()
            }
        } catch let error as SessionCaptureError {
            throw error
        } catch {
            throw SessionCaptureError(.badContent, file: Self.indexFileName, "the peer's ephemeral key cannot be read: \(error)")
        }
        do {
            return try SessionKeys(privateKey: ephemeralKey, peerPublicKey: peerKey, sessionTranscriptBytes: sessionTranscriptBytes)
        } catch {
            throw SessionCaptureError(.inconsistent, file: Self.indexFileName, "the session keys cannot be derived: \(error)")
        }
    }

    /// The number of chunks this side sent `message` in at ``mtu``: a GATT client writes chunks
    /// of at most `MessageChunker.maximumWriteChunkSize` octets, a GATT server notifies chunks of
    /// at most `MessageChunker.maximumChunkSize` (8.3.3.1.1.6); `nil` for a received message,
    /// whose chunks only the peer knows, or without an MTU.
    func sentChunks(_ message: LinkMessage) -> Int? {
        guard message.direction == .sent, let mtu, let mode else { return nil }
        // In peripheral server mode the mdoc is the GATT server, in central client mode the reader.
        let isClient = (mode == .peripheralServer) == (role == .reader)
        let limit = isClient ? MessageChunker.maximumWriteChunkSize : MessageChunker.maximumChunkSize
        return MessageChunker.chunkCount(messageSize: message.bytes.count, mtu: mtu, limit: limit)
    }
}
