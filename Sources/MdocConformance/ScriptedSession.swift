import MdocBLE
import MdocCBOR
import MdocModel
import MdocSession

/// The session a ``ConformanceCase`` runs against the mdoc under test: what the reader asks, and
/// how it departs on purpose from the session ISO/IEC 18013-5 9.1.1 describes.
public struct ScriptedSession: Sendable {
    /// The first DeviceRequest.
    public enum Request: Sendable {
        /// The DeviceRequest the reader builds from these DocRequests (8.3.2.1.2.1).
        case built([DocRequestSpec])
        /// These bytes, sent exactly as given: a DeviceRequest that may be malformed on purpose.
        case given([UInt8])
    }

    /// How the session departs on purpose from the one the reader builds: in the request it
    /// sends, or in the messages around it.
    public enum Departure: Sendable, Hashable {
        /// Nothing: the session as the reader builds it.
        case none
        /// The last byte of SessionEstablishment's `data` (the AES-GCM tag) is altered, so that
        /// the ciphertext cannot be authenticated (9.1.1.5).
        case alteredCiphertext
        /// After the response, the SessionEstablishment's ciphertext is sent again in
        /// SessionData: a replay under a reader counter the mdoc already used (9.1.1.5).
        case replayedCiphertext
        /// SessionEstablishment carries an EReaderKey on another curve than the engagement's
        /// EDeviceKey (9.1.5.2), with the ciphertext of the key on the right one.
        case eReaderKeyOnOtherCurve
        /// SessionEstablishment as built but without this entry (9.1.1.4): well-formed CBOR
        /// whose structure is wrong, from which the mdoc gets no session key or no request.
        case establishmentWithout(EstablishmentEntry)
        /// SessionEstablishment as built but with this entry's tag 24 (RFC 8949 section
        /// 3.4.5.1) taken off where 9.1.1.4 gives it one (`eReaderKey`, EReaderKeyBytes, then a
        /// bare byte string) and put on where it gives none (`data`, a bstr, then
        /// `#6.24(bstr)`): the content as built under a tag the CDDL does not give it, which an
        /// mdoc that reads past tags takes as the entry itself.
        case establishmentRetagged(EstablishmentEntry)
        /// The DeviceRequest as built but of this version, with these entries added under keys
        /// 8.3.2.1.2.1 does not define: what a later minor version may add (8.1).
        case requestVersion(String, additionalEntries: CBORMap = CBORMap())
        /// Each DocRequest's ReaderAuth is signed over the SessionTranscript of another
        /// session, one with another EReaderKey, not over this session's (9.1.4).
        case readerAuthOverOtherTranscript
        /// The last byte of each DocRequest's ReaderAuth signature is altered (9.1.4).
        case readerAuthSignatureAltered
        /// Each DocRequest's ReaderAuth is signed as a reader the mdoc cannot trust: by the key
        /// of a reader certificate made for the request, under a reader root made with it, both
        /// in its x5chain (9.1.4, Annex B).
        case readerAuthByUntrustedReader
        /// Each DocRequest's ReaderAuth is signed as a reader whose certificate has expired,
        /// under a root the mdoc trusts (9.1.4): ``ConformanceRunner/expiredReaderAuthentication``.
        case readerAuthByExpiredReader
        /// Each DocRequest's ItemsRequest carries `requestInfo` with these entries
        /// (8.3.2.1.2.1), and its ReaderAuth is signed over the ItemsRequestBytes as sent
        /// (9.1.4): an mdoc that authenticates the reader over an ItemsRequest it encoded again
        /// from the fields it knows finds the signature wrong.
        case requestInfo(CBORMap)
        /// In mdoc central client mode, the reader's GATT server serves the Ident derived from
        /// EDeviceKeyBytes with its last octet altered (8.3.3.1.1.4): an mdoc that reads and
        /// checks it finds it wrong and leaves before it starts the session.
        case identAltered
        /// After the response, the reader terminates the session with SessionData of status
        /// 20 alone (9.1.1.4), without the transport's termination (BLE State 0x02), and
        /// leaves the link up: the mdoc, which on termination closes the channel used for data
        /// retrieval (9.1.1.4), is left to close it.
        case terminationByStatusOnly
        /// After the response, the reader terminates the session with the transport's
        /// termination alone, BLE State 0x02 (8.3.3.1.1.5), without SessionData of status 20,
        /// and leaves the link up for the mdoc to close (9.1.1.4).
        case terminationByStateOnly
        /// Before the session, in mdoc peripheral server mode, the reader connects to the mdoc's
        /// service, exchanges the ATT_MTU, discovers the service and enables the notifications
        /// of State and Server2Client, then drops the link without writing State 0x01: a
        /// connection lost before the session's start (8.3.3.1.1.3). It then connects again and
        /// runs the session as usual, which the mdoc must take up.
        case linkLostBeforeStart

        /// Whether the departure is about reader authentication, so that the runner can run it
        /// only with a reader key and certificate.
        public var needsReaderAuthentication: Bool {
            switch self {
            case .readerAuthOverOtherTranscript, .readerAuthSignatureAltered, .readerAuthByUntrustedReader, .readerAuthByExpiredReader,
                 .requestInfo: true
            case .none, .alteredCiphertext, .replayedCiphertext, .eReaderKeyOnOtherCurve, .establishmentWithout, .establishmentRetagged,
                 .requestVersion, .identAltered, .terminationByStatusOnly, .terminationByStateOnly, .linkLostBeforeStart: false
            }
        }

        /// The BLE mode the departure needs the session in, `nil` for any: Ident exists only in
        /// mdoc central client mode, where the reader is the GATT server (8.3.3.1.1.4); the
        /// reader's own link to drop, only in mdoc peripheral server mode, where it is the
        /// central.
        public var requiredMode: MdocBLEMode? {
            switch self {
            case .identAltered: .centralClient
            case .linkLostBeforeStart: .peripheralServer
            default: nil
            }
        }
    }

    /// An entry of SessionEstablishment (9.1.1.4), by its key.
    public enum EstablishmentEntry: String, Sendable, Hashable {
        /// `eReaderKey`: EReaderKeyBytes, from which with EDeviceKey the session keys come.
        case eReaderKey
        /// `data`: the encrypted DeviceRequest.
        case data
    }

    /// How the runner's side sizes the BLE link (the reader's in a ``ScriptedSession``, the
    /// holder's in a ``ScriptedHolderSession``): the ATT_MTU it takes in the Exchange MTU of
    /// 8.3.3.1.1.4 and the chunks of 8.3.3.1.1.6 it sends. Only a transport whose ATT layer the
    /// runner runs (`sim`, `hci:`) can size it; through bluetoothd, which exchanges the ATT_MTU
    /// itself, a case sized otherwise than `.standard` is inconclusive.
    public enum Link: Sendable, Hashable {
        /// The usual link: the largest ATT_MTU of use, chunks as large as it allows.
        case standard
        /// The runner's side takes an ATT_MTU of at most this many octets (23 to 517), as its
        /// Client Rx MTU when it is the GATT client and its Server Rx MTU when it is the server;
        /// the chunks of the device under test must then fit min(512, ATT_MTU − 3) octets.
        case mtu(Int)
        /// The runner's chunks carry at most this many octets, header included, however large
        /// the ATT_MTU: 8.3.3.1.1.6 bounds a chunk's size from above only.
        case chunksOfAtMost(Int)
        /// The runner's chunks are full but the last, which carries one octet of the message.
        case lastChunkOfOneOctet
        /// As ``lastChunkOfOneOctet``, with a pause of ``stall`` before the last chunk: a link
        /// that stalls mid-message and comes back.
        case pauseBeforeLastChunk

        /// 3 s: the pause of ``pauseBeforeLastChunk``. Shorter than the 4 s that a BLE link's
        /// connection interval may itself reach (Core Vol 6 Part B 4.5.1), so that a peer cannot
        /// take it for a lost link, and long enough that a peer bounding the wait between chunks
        /// much more tightly gives up.
        public static let stall: Duration = .seconds(3)
    }

    /// The first DeviceRequest.
    public var request: Request
    /// How the session departs from the usual one.
    public var departure: Departure
    /// How the reader sizes the BLE link.
    public var link: Link = .standard

    /// A session sending `request` and departing as `departure` says.
    public init(request: Request, departure: Departure = .none) {
        self.request = request
        self.departure = departure
    }

    /// A session sending `request` over a BLE link sized as `link` says.
    public init(request: Request, link: Link) {
        self.request = request
        self.departure = .none
        self.link = link
    }
}

extension ScriptedSession.Link {
    /// The outcome of a case sized as this link over `radio` when the runner cannot size the
    /// link there, `side` ("reader" or "holder") naming the runner's part; `nil` when the case
    /// can run. Said before an engagement is taken or shown, so that the device under test
    /// meets it in the next case.
    func unsizable(over radio: any MdocRadio, by side: String) -> ConformanceOutcome? {
        guard self != .standard, !(radio is any BLEAdapter) else { return nil }
        return .inconclusive(
            "this transport does not let the \(side) choose \(sizing): bluetoothd exchanges the ATT_MTU itself; run the case over hci: or sim")
    }

    /// The sizing the runner's side of the link takes.
    var sizing: MdocLinkSizing {
        switch self {
        case .standard: .standard
        case .mtu(let mtu): MdocLinkSizing(receiveMTU: mtu)
        case .chunksOfAtMost(let size): MdocLinkSizing(chunking: .atMost(size))
        case .lastChunkOfOneOctet: MdocLinkSizing(chunking: .lastOctetAlone)
        case .pauseBeforeLastChunk: MdocLinkSizing(chunking: .lastOctetAlone, pauseBeforeLastChunk: Self.stall)
        }
    }
}
