import MdocBLE
import MdocCBOR
import MdocModel
import MdocNFC
import MdocSession

extension HolderDriver {
    /// The Handover Select message of static handover (ISO/IEC 18013-5 8.2.2.1): the
    /// DeviceEngagement and a BLE carrier record for each mode the engagement offers, with its
    /// service UUID.
    package var handoverSelect: HandoverSelectMessage {
        Self.makeHandoverSelect(
            deviceEngagement: Array(deviceEngagement.bytes), modes: modes, options: deviceEngagement.value.bleOptions,
            nfc: nfcRetrieval?.carrier)
    }

    /// An NDEF Type 4 Tag application offering this engagement to a reader that taps, the
    /// session taking the handover it makes into its SessionTranscript (9.1.5.1); with
    /// `retrieval`, NFC data retrieval through that application is offered beside BLE.
    package mutating func tag(_ mode: NFCHandoverMode, retrieval: NFCDataTransferApplication? = nil) -> NDEFTagApplication {
        nfcRetrieval = retrieval
        let tag: NDEFTagApplication
        switch mode {
        case .staticHandover:
            tag = NDEFTagApplication(staticHandover: handoverSelect)
        case .negotiatedHandover:
            let engagement = Array(deviceEngagement.bytes)
            let modes = self.modes
            let options = deviceEngagement.value.bleOptions
            let nfc = retrieval?.carrier
            tag = NDEFTagApplication { request throws(NFCError) in
                let common = try Self.offeredModes(of: request).filter(modes.contains)
                let nfcCommon = request.carriers.contains { $0.nfc != nil } ? nfc : nil
                guard !common.isEmpty || nfcCommon != nil else {
                    throw NFCError(.invalidHandover, "the Handover Request offers no carrier the mdoc offers")
                }
                return Self.makeHandoverSelect(deviceEngagement: engagement, modes: common, options: options, nfc: nfcCommon)
            }
        }
        handover = { await tag.handover }
        return tag
    }

    /// A Handover Select with the DeviceEngagement, one BLE carrier record per mode of `modes`
    /// (IDs `0`, `1`), then the NFC carrier record `nfc` when given.
    private static func makeHandoverSelect(
        deviceEngagement: [UInt8], modes: [MdocBLEMode], options: BleOptions?, nfc: NFCCarrier?
    ) -> HandoverSelectMessage {
        var carriers: [HandoverCarrier] = []
        for mode in modes {
            let single = BleOptions(
                peripheralServerModeSupported: mode == .peripheralServer, centralClientModeSupported: mode == .centralClient,
                peripheralServerModeUUID: mode == .peripheralServer ? options?.peripheralServerModeUUID : nil,
                centralClientModeUUID: mode == .centralClient ? options?.centralClientModeUUID : nil,
                mdocBLEDeviceAddress: mode == .peripheralServer ? options?.mdocBLEDeviceAddress : nil)
            // One mode with at most one UUID always makes a record.
            guard var carrier = try? BluetoothLECarrier(options: single, sender: .mdoc) else { continue }
            carrier.recordID = String(carriers.count)
            carriers.append(.bluetoothLE(carrier))
        }
        if let nfc { carriers.append(.nfc(nfc)) }
        return HandoverSelectMessage(deviceEngagement: deviceEngagement, carriers: carriers)
    }

    /// The mdoc's BLE modes a Handover Request's BLE carrier records offer (the reader's LE
    /// role read from the reader's side).
    private static func offeredModes(of request: HandoverRequestMessage) throws(NFCError) -> [MdocBLEMode] {
        var modes: [MdocBLEMode] = []
        for record in request.carriers.compactMap(\.bluetoothLE) {
            let options = try record.options(sender: .reader)
            if options.peripheralServerModeSupported, !modes.contains(.peripheralServer) { modes.append(.peripheralServer) }
            if options.centralClientModeSupported, !modes.contains(.centralClient) { modes.append(.centralClient) }
        }
        return modes
    }
}
