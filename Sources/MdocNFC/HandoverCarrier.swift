import MdocModel

/// A carrier of a handover message, the configuration record an Alternative Carrier record
/// refers to (NFC Forum Connection Handover 1.5, 6.2; ISO/IEC 18013-5 8.2.2.1): Bluetooth LE,
/// NFC, or another carrier (Wi-Fi Aware, say) kept as its record.
public enum HandoverCarrier: Sendable, Hashable {
    /// `application/vnd.bluetooth.le.oob`.
    case bluetoothLE(BluetoothLECarrier)
    /// `iso.org:18013:nfc`.
    case nfc(NFCCarrier)
    /// Any other carrier configuration record, as received.
    case other(NDEFRecord)

    /// The carrier of `record`: BLE and NFC records are read and must be well formed.
    public init(record: NDEFRecord) throws(NFCError) {
        if record.isType(.mediaType, NDEFRecord.bluetoothLEOOBType) {
            var carrier = try BluetoothLECarrier(payload: record.payload)
            carrier.recordID = String(decoding: record.id, as: UTF8.self)
            self = .bluetoothLE(carrier)
        } else if record.isType(.external, NDEFRecord.readerNFCType) {
            self = .nfc(try NFCCarrier(payload: record.payload))
        } else {
            self = .other(record)
        }
    }

    /// The BLE carrier, when this is one.
    public var bluetoothLE: BluetoothLECarrier? {
        if case .bluetoothLE(let carrier) = self { return carrier }
        return nil
    }

    /// The NFC carrier, when this is one.
    public var nfc: NFCCarrier? {
        if case .nfc(let carrier) = self { return carrier }
        return nil
    }

    /// The configuration record; it has an ID, which an Alternative Carrier record refers to.
    public var record: NDEFRecord {
        switch self {
        case .bluetoothLE(let carrier): return carrier.record
        case .nfc(let carrier): return carrier.record
        case .other(let record): return record
        }
    }

    /// The carrier as the DeviceRetrievalMethod of 18013-5 8.2.1.1 it stands for, read from the
    /// point of view of `sender`; `nil` for other carriers and for an NFC record without both
    /// lengths.
    public func retrievalMethod(sender: BluetoothLECarrier.Sender) throws(NFCError) -> DeviceRetrievalMethod? {
        switch self {
        case .bluetoothLE(let carrier): return .ble(try carrier.options(sender: sender))
        case .nfc(let carrier): return carrier.options.map(DeviceRetrievalMethod.nfc)
        case .other: return nil
        }
    }
}
