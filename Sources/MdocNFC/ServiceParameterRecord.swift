import MdocModel

/// A TNEP Service Parameter record, well-known type `Tp` (NFC Forum Tag NDEF Exchange
/// Protocol 1.0, 4.1.2): what an NFC Tag Device offers a reader before negotiated handover,
/// for ISO/IEC 18013-5 8.2.2.1 the service `urn:nfc:sn:handover`.
public struct ServiceParameterRecord: Sendable, Hashable {
    /// The well-known type: `Tp`.
    public static let type = "Tp"
    /// The TNEP version this toolkit writes: 1.0.
    public static let tnepVersion: UInt8 = 0x10
    /// The service name of Connection Handover (TNEP 1.0, 4.1.2; Connection Handover 1.5).
    public static let connectionHandoverServiceName = "urn:nfc:sn:handover"
    /// The largest minimum waiting time WT (6 bits).
    public static let maximumWaitingTimeValue: UInt8 = 63
    /// The largest number of waiting time extensions N_wait (4 bits).
    public static let maximumWaitingTimeExtensions: UInt8 = 15

    /// The TNEP version.
    public var version: UInt8
    /// The service name URI.
    public var serviceName: String
    /// The communication mode: 0, single response (TNEP 1.0, 4.1.2).
    public var communicationMode: UInt8
    /// WT, the minimum waiting time as TNEP codes it: 2^(WT/4 − 1) ms (TNEP 1.0, 4.1.6).
    public var minimumWaitingTime: UInt8
    /// N_wait, the most waiting time extensions the reader may ask for.
    public var maximumWaitingTimeExtensions: UInt8
    /// The largest NDEF message the service takes, in bytes.
    public var maximumNDEFMessageSize: UInt16

    /// A record of its parts: `minimumWaitingTime` and `maximumWaitingTimeExtensions` within
    /// their bit widths, the service name at most 255 bytes, or it is a programming error.
    public init(serviceName: String = Self.connectionHandoverServiceName, communicationMode: UInt8 = 0, minimumWaitingTime: UInt8,
                maximumWaitingTimeExtensions: UInt8, maximumNDEFMessageSize: UInt16) {
        precondition(minimumWaitingTime <= Self.maximumWaitingTimeValue && maximumWaitingTimeExtensions <= Self.maximumWaitingTimeExtensions)
        precondition(serviceName.utf8.count <= 255)
        version = Self.tnepVersion
        self.serviceName = serviceName
        self.communicationMode = communicationMode
        self.minimumWaitingTime = minimumWaitingTime
        self.maximumWaitingTimeExtensions = maximumWaitingTimeExtensions
        self.maximumNDEFMessageSize = maximumNDEFMessageSize
    }

    /// Reads a `Tp` record's payload: version, service name length and name (UTF-8), communication
    /// mode, WT, N_wait and the maximum NDEF message size, and nothing after.
    public init(payload: [UInt8]) throws(NFCError) {
        guard payload.count >= 2 else {
            throw NFCError(.truncated, "a service parameter record has at least 7 bytes, \(payload.count) came", offset: payload.count)
        }
        let nameLength = Int(payload[1])
        guard payload.count == 7 + nameLength else {
            throw NFCError(payload.count < 7 + nameLength ? .truncated : .trailingBytes,
                           "a service parameter record with a \(nameLength)-byte name has \(7 + nameLength) bytes, not \(payload.count)",
                           offset: min(payload.count, 7 + nameLength))
        }
        version = payload[0]
        guard version >> 4 == 1 else {
            throw NFCError(.invalidHandover, "TNEP version \(version >> 4).\(version & 0x0F), this toolkit reads 1.x", offset: 0)
        }
        guard let name = String(validating: payload[2..<2 + nameLength], as: UTF8.self) else {
            throw NFCError(.malformed, "the service name is not UTF-8", offset: 2)
        }
        serviceName = name
        var offset = 2 + nameLength
        communicationMode = payload[offset]
        minimumWaitingTime = payload[offset + 1]
        maximumWaitingTimeExtensions = payload[offset + 2]
        offset += 1
        guard minimumWaitingTime <= Self.maximumWaitingTimeValue else {
            throw NFCError(.malformed, "a minimum waiting time value of \(minimumWaitingTime)", offset: offset)
        }
        guard maximumWaitingTimeExtensions <= Self.maximumWaitingTimeExtensions else {
            throw NFCError(.malformed, "\(maximumWaitingTimeExtensions) waiting time extensions", offset: offset + 1)
        }
        maximumNDEFMessageSize = UInt16(payload[offset + 2]) << 8 | UInt16(payload[offset + 3])
    }

    /// The minimum waiting time: 2^(WT/4 − 1) milliseconds (TNEP 1.0, 4.1.6), from 0.5 ms
    /// (WT 0) to about 27.9 s (WT 63).
    public var waitingTime: Duration {
        let quarterSteps = [1.0, 1.189207115002721, 1.4142135623730951, 1.681792830507429]  // 2^(k/4)
        let microseconds = 500 * Double(1 << Int(minimumWaitingTime / 4)) * quarterSteps[Int(minimumWaitingTime % 4)]
        return .microseconds(Int64(microseconds.rounded()))
    }

    /// The payload.
    public var payload: [UInt8] {
        let name = Array(serviceName.utf8)
        return [version, UInt8(name.count)] + name + [communicationMode, minimumWaitingTime, maximumWaitingTimeExtensions,
                                                       UInt8(maximumNDEFMessageSize >> 8), UInt8(truncatingIfNeeded: maximumNDEFMessageSize)]
    }

    /// The `Tp` record.
    public var record: NDEFRecord {
        NDEFRecord(typeNameFormat: .wellKnown, type: Array(Self.type.utf8), payload: payload)
    }
}
