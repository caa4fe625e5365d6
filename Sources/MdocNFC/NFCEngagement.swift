import MdocModel

/// What a reader learns from NFC engagement (ISO/IEC 18013-5 8.2.2.1): the mdoc's Handover
/// Select message and, for negotiated handover, the Handover Request message the reader wrote.
public struct NFCEngagement: Sendable, Hashable {
    /// The Handover Select message, with its exact bytes, the DeviceEngagement and the carriers.
    public var handoverSelect: HandoverSelectMessage
    /// The Handover Request message of negotiated handover; `nil` for static handover.
    public var handoverRequest: HandoverRequestMessage?

    /// An engagement of its parts.
    public init(handoverSelect: HandoverSelectMessage, handoverRequest: HandoverRequestMessage?) {
        self.handoverSelect = handoverSelect
        self.handoverRequest = handoverRequest
    }

    /// The SessionTranscript's Handover (18013-5 9.1.5.1).
    public var handover: Handover {
        handoverSelect.handover(request: handoverRequest)
    }

    /// The DeviceEngagement bytes.
    public var deviceEngagement: [UInt8] { handoverSelect.deviceEngagement }

    /// The Handover Select's NFC carrier record: NFC data retrieval offered, within its limits
    /// (8.3.3.1.2); `nil` when not offered.
    public var nfcCarrier: NFCCarrier? { handoverSelect.carriers.lazy.compactMap(\.nfc).first }

    /// The BLE retrieval options of the Handover Select's BLE carrier records (8.2.2.1), one
    /// record per mode or one for both: each mode with the service UUID of the first record
    /// offering it, the address of the first that has one. `nil` without a BLE record; throws
    /// `invalidHandover` for a BLE record without a valid LE role.
    public func bleOptions() throws(NFCError) -> BleOptions? {
        var merged: BleOptions?
        for record in handoverSelect.carriers.compactMap(\.bluetoothLE) {
            let options = try record.options(sender: .mdoc)
            guard var result = merged else {
                merged = options
                continue
            }
            if options.peripheralServerModeSupported, !result.peripheralServerModeSupported {
                result.peripheralServerModeSupported = true
                result.peripheralServerModeUUID = options.peripheralServerModeUUID
            }
            if options.centralClientModeSupported, !result.centralClientModeSupported {
                result.centralClientModeSupported = true
                result.centralClientModeUUID = options.centralClientModeUUID
            }
            result.mdocBLEDeviceAddress = result.mdocBLEDeviceAddress ?? options.mdocBLEDeviceAddress
            merged = result
        }
        return merged
    }
}
