// The numeric codes ISO/IEC 18013-5 defines, in one place. Each is a struct over its raw value so
// that a code this toolkit does not know is kept rather than rejected: the CDDL types them as
// `uint` or `int`, and a newer edition may add values.

extension SessionData {
    /// The `status` of a SessionData message (ISO/IEC 18013-5 9.1.1.4).
    public struct Status: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public var rawValue: UInt64

        public init(rawValue: UInt64) {
            self.rawValue = rawValue
        }

        /// 10: error, session encryption.
        public static let sessionEncryptionError = Status(rawValue: 10)
        /// 11: error, CBOR decoding.
        public static let cborDecodingError = Status(rawValue: 11)
        /// 20: session termination.
        public static let sessionTermination = Status(rawValue: 20)

        /// The name the standard gives the code, or "unknown status N".
        public var description: String {
            switch rawValue {
            case 10: return "session encryption error (10)"
            case 11: return "CBOR decoding error (11)"
            case 20: return "session termination (20)"
            default: return "unknown status \(rawValue)"
            }
        }
    }
}

extension DeviceResponse {
    /// The `status` of a DeviceResponse (ISO/IEC 18013-5 8.3.2.1.2.3).
    public struct Status: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public var rawValue: UInt64

        public init(rawValue: UInt64) {
            self.rawValue = rawValue
        }

        /// 0: OK, normal processing.
        public static let ok = Status(rawValue: 0)
        /// 10: general error.
        public static let generalError = Status(rawValue: 10)
        /// 11: CBOR decoding error.
        public static let cborDecodingError = Status(rawValue: 11)
        /// 12: CBOR validation error.
        public static let cborValidationError = Status(rawValue: 12)

        /// The name the standard gives the code, or "unknown status N".
        public var description: String {
            switch rawValue {
            case 0: return "OK (0)"
            case 10: return "general error (10)"
            case 11: return "CBOR decoding error (11)"
            case 12: return "CBOR validation error (12)"
            default: return "unknown status \(rawValue)"
            }
        }
    }
}

/// `ErrorCode = int`: why a document or data element was not returned (ISO/IEC 18013-5
/// 8.3.2.1.2.3). Codes below 0 and above 0 other than those named are kept as received.
public struct ErrorCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: Int64

    public init(rawValue: Int64) {
        self.rawValue = rawValue
    }

    /// 0: data not returned (the only code 18013-5:2021 defines).
    public static let dataNotReturned = ErrorCode(rawValue: 0)

    /// The name the standard gives the code, or "error code N".
    public var description: String {
        rawValue == 0 ? "data not returned (0)" : "error code \(rawValue)"
    }
}

extension Security {
    /// The cipher suite of the ephemeral device key (ISO/IEC 18013-5 9.1.5.2).
    public struct CipherSuiteIdentifier: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public var rawValue: Int64

        public init(rawValue: Int64) {
            self.rawValue = rawValue
        }

        /// 1: the only cipher suite 18013-5:2021 defines (ECDH/ECDHE with HKDF-SHA-256 and AES-256-GCM).
        public static let suite1 = CipherSuiteIdentifier(rawValue: 1)

        public var description: String { "cipher suite \(rawValue)" }
    }
}

extension DeviceRetrievalMethod {
    /// The `type` of a device retrieval method (ISO/IEC 18013-5 8.2.1.1).
    public struct MethodType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public var rawValue: UInt64

        public init(rawValue: UInt64) {
            self.rawValue = rawValue
        }

        /// 1: NFC.
        public static let nfc = MethodType(rawValue: 1)
        /// 2: Bluetooth Low Energy.
        public static let ble = MethodType(rawValue: 2)
        /// 3: Wi-Fi Aware.
        public static let wifiAware = MethodType(rawValue: 3)

        public var description: String {
            switch rawValue {
            case 1: return "NFC"
            case 2: return "BLE"
            case 3: return "Wi-Fi Aware"
            default: return "retrieval type \(rawValue)"
            }
        }
    }
}
