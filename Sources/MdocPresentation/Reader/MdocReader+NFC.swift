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
    /// reader can use (the configuration's preferred one, else both), with a new random
    /// collision resolution number. The mdoc's Handover Select names the service UUIDs.
    public func handoverRequest() -> HandoverRequestMessage {
        Self.handoverRequest(modes: configuration.preferredMode.map { [$0] } ?? MdocBLEMode.allCases)
    }

    /// The Handover Request message of a reader that can use `modes`.
    package static func handoverRequest(modes: [MdocBLEMode]) -> HandoverRequestMessage {
        let options = BleOptions(
            peripheralServerModeSupported: modes.contains(.peripheralServer), centralClientModeSupported: modes.contains(.centralClient))
        // Options with a mode and no UUIDs always make a record; without a mode, none.
        let carrier = try? BluetoothLECarrier(options: options, sender: .reader)
        return HandoverRequestMessage(
            readerEngagement: readerEngagement, carriers: carrier.map { [.bluetoothLE($0)] } ?? [],
            collisionResolutionNumber: UInt16.random(in: 0...UInt16.max))
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
        return Session(session: session, bleOptions: carriers ?? deviceEngagement.value.bleOptions, configuration: configuration)
    }
}
