import MdocBLE
import MdocCBOR
import MdocModel
import MdocNFC
import MdocSession

extension MdocReader {
    /// The ReaderEngagement a reader sends in its Handover Request message: version "1.0"
    /// (ISO/IEC 18013-5 8.2.2.1, `{0: "1.0"}`).
    public static let readerEngagement: [UInt8] = CBOR.map(CBORMap([.init(key: 0, value: "1.0")])).encoded()

    /// The Handover Request message this reader writes when the mdoc offers negotiated
    /// handover (8.2.2.1): the ReaderEngagement and one BLE carrier record for the modes the
    /// reader can use (the configuration's preferred one, else both), then an NFC carrier
    /// record when `nfcRetrieval`, with a new random collision resolution number. The mdoc's
    /// Handover Select names the service UUIDs and its NFC limits.
    public func handoverRequest(nfcRetrieval: Bool = false) -> HandoverRequestMessage {
        Self.handoverRequest(modes: configuration.preferredMode.map { [$0] } ?? MdocBLEMode.allCases, nfcRetrieval: nfcRetrieval)
    }

    /// The Handover Request message of a reader that can use `modes`, and NFC data retrieval
    /// when `nfcRetrieval`.
    package static func handoverRequest(modes: [MdocBLEMode], nfcRetrieval: Bool = false) -> HandoverRequestMessage {
        let options = BleOptions(
            peripheralServerModeSupported: modes.contains(.peripheralServer), centralClientModeSupported: modes.contains(.centralClient))
        // Options with a mode and no UUIDs always make a record; without a mode, none.
        var carriers = (try? BluetoothLECarrier(options: options, sender: .reader)).map { [HandoverCarrier.bluetoothLE($0)] } ?? []
        if nfcRetrieval {
            carriers.append(.nfc(NFCCarrier(maximumCommandDataLength: nil, maximumResponseDataLength: nil)))
        }
        return HandoverRequestMessage(
            readerEngagement: readerEngagement, carriers: carriers, collisionResolutionNumber: UInt16.random(in: 0...UInt16.max))
    }

    /// A new session with the mdoc that was tapped (8.2.2.1), with a new ephemeral reader key:
    /// the DeviceEngagement of the Handover Select, the handover (static or negotiated) for
    /// the SessionTranscript, byte for byte, and the BLE retrieval options of its BLE carrier
    /// records (else the DeviceEngagement's). Run it with ``Session/run(over:)``.
    ///
    /// - Throws: `SessionError` with `invalidEngagement` when the DeviceEngagement or the BLE
    ///   carrier record cannot be read, and as ``session(for:)-(MdocURI)`` otherwise.
    public func session(for engagement: NFCEngagement) throws(SessionError) -> Session {
        let deviceEngagement: EmbeddedCBOR<DeviceEngagement>
        do {
            deviceEngagement = try EmbeddedCBOR<DeviceEngagement>(bytes: engagement.deviceEngagement)
        } catch {
            throw SessionError(.invalidEngagement, "the Handover Select's DeviceEngagement: \(error)")
        }
        let session = try ReaderSession(
            engagement: deviceEngagement, handover: engagement.handover, request: configuration.request,
            readerAuthentication: configuration.readerAuthentication, trustAnchors: configuration.trustAnchors,
            documentSignerPolicy: configuration.documentSignerPolicy, now: configuration.now)
        let carriers: BleOptions?
        do {
            carriers = try engagement.bleOptions()
        } catch {
            throw SessionError(.invalidEngagement, "the Handover Select's BLE carrier record: \(error)")
        }
        return Session(
            session: session, bleOptions: carriers ?? deviceEngagement.value.bleOptions, nfcCarrier: engagement.nfcCarrier,
            configuration: configuration)
    }
}

extension MdocReader.Session {
    /// Runs the session over NFC data retrieval (8.3.3.1.2) through `channel`, the card that
    /// was tapped: selects the mdoc application, then sends each message in ENVELOPEs within
    /// the limits of the Handover Select's NFC carrier record (extended APDUs where both sides
    /// carry them, unless `shortAPDUsOnly`), until the session ends. A session made from an
    /// engagement without an NFC carrier record fails with `noCommonMode`.
    public consuming func run(overNFC channel: any NFCCommandChannel, shortAPDUsOnly: Bool = false) async -> ReaderVerdict {
        guard let carrier = nfcCarrier else {
            return finish(ReaderSessionResult(
                end: .link(LinkError(.noCommonMode, "the mdoc's Handover Select offers no NFC data retrieval")), mode: nil,
                report: nil, response: nil))
        }
        return finish(await driver.run(
            overNFC: NFCDataTransferReader(channel: channel, holderOptions: carrier, shortAPDUsOnly: shortAPDUsOnly)))
    }
}
