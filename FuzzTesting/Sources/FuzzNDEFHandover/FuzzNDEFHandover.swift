import FuzzSupport
import MdocModel
import MdocNFC

/// What NFC engagement reads from a peer (NFC Forum NDEF, Connection Handover 1.5, TNEP, Type 4
/// Tag, ISO/IEC 18013-5 8.2.2.1): the input as an NDEF message (which must write back and read
/// back the same), a Handover Select and a Handover Request message with their carriers read
/// from both senders' side, a capability container, and as the payload of each record type.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNDEFHandover(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput.bytes(data, size)
    if let message = try? NDEFMessage(bytes: bytes) {
        precondition((try? NDEFMessage(bytes: message.bytes)) == message, "an NDEF message does not read back")
    }
    if let select = try? HandoverSelectMessage(bytes: bytes) {
        precondition(select.bytes == bytes && select.carriers.count == select.alternativeCarriers.count)
        carriers(select.carriers)
        _ = select.handover(request: nil)
    }
    if let request = try? HandoverRequestMessage(bytes: bytes) {
        precondition(request.bytes == bytes)
        carriers(request.carriers)
    }
    if let container = try? CapabilityContainer(bytes: bytes) {
        precondition((try? CapabilityContainer(bytes: container.bytes)) == container, "a capability container does not read back")
    }
    if let carrier = try? BluetoothLECarrier(payload: bytes) {
        precondition(carrier.payload == bytes)
        _ = (carrier.leRole, carrier.serviceUUIDs, carrier.deviceAddress)
    }
    if let carrier = try? NFCCarrier(payload: bytes) {
        precondition((try? NFCCarrier(payload: carrier.payload)) == carrier)
    }
    if let record = try? AlternativeCarrierRecord(payload: bytes) {
        precondition(record.payload == bytes)
    }
    if let record = try? ServiceParameterRecord(payload: bytes) {
        precondition(record.payload == bytes)
        _ = record.waitingTime
    }
    if let record = try? ServiceSelectRecord(payload: bytes) {
        _ = record.payload
    }
    _ = try? TNEPStatusRecord(payload: bytes)
    return 0
}

/// Every carrier as a retrieval method from either side, and its record written again.
private func carriers(_ carriers: [HandoverCarrier]) {
    for carrier in carriers {
        _ = try? carrier.retrievalMethod(sender: .mdoc)
        _ = try? carrier.retrievalMethod(sender: .reader)
        _ = carrier.record
    }
}
