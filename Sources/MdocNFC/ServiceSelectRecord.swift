import MdocModel

/// A TNEP Service Select record, well-known type `Ts` (NFC Forum Tag NDEF Exchange Protocol
/// 1.0, 4.2): the reader writes it to open a service, for ISO/IEC 18013-5 8.2.2.1
/// `urn:nfc:sn:handover`.
public struct ServiceSelectRecord: Sendable, Hashable {
    /// The well-known type: `Ts`.
    public static let type = "Ts"

    /// The service name URI.
    public var serviceName: String

    /// A record selecting `serviceName` (at most 255 bytes, or it is a programming error).
    public init(serviceName: String = ServiceParameterRecord.connectionHandoverServiceName) {
        precondition(serviceName.utf8.count <= 255)
        self.serviceName = serviceName
    }

    /// Reads a `Ts` record's payload: the name's length and the name in UTF-8, nothing after.
    public init(payload: [UInt8]) throws(NFCError) {
        guard let length = payload.first else {
            throw NFCError(.truncated, "the service select record is empty", offset: 0)
        }
        guard payload.count == 1 + Int(length) else {
            throw NFCError(payload.count < 1 + Int(length) ? .truncated : .trailingBytes,
                           "a service select record with a \(length)-byte name has \(1 + Int(length)) bytes, not \(payload.count)",
                           offset: 0)
        }
        guard let name = String(validating: payload.dropFirst(), as: UTF8.self) else {
            throw NFCError(.malformed, "the service name is not UTF-8", offset: 1)
        }
        serviceName = name
    }

    /// The payload.
    public var payload: [UInt8] {
        let name = Array(serviceName.utf8)
        return [UInt8(name.count)] + name
    }

    /// The `Ts` record.
    public var record: NDEFRecord {
        NDEFRecord(typeNameFormat: .wellKnown, type: Array(Self.type.utf8), payload: payload)
    }
}
