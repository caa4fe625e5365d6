/// The HPKE cipher suites this module implements (RFC 9180 section 7): DHKEM(P-256, HKDF-SHA256)
/// with HKDF-SHA256 and an AES-GCM AEAD. ISO/IEC TS 18013-7 Annex C encrypts the DeviceResponse
/// with the first.
public enum HPKECipherSuite: Sendable, CaseIterable, CustomStringConvertible {
    /// DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-128-GCM: kem_id 0x0010, kdf_id 0x0001,
    /// aead_id 0x0001 (RFC 9180 Appendix A.3).
    case p256SHA256AES128GCM
    /// DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-256-GCM: kem_id 0x0010, kdf_id 0x0001,
    /// aead_id 0x0002.
    case p256SHA256AES256GCM

    /// The KEM identifier (RFC 9180 section 7.1, Table 2): DHKEM(P-256, HKDF-SHA256).
    public var kemIdentifier: UInt16 { 0x0010 }

    /// The KDF identifier (RFC 9180 section 7.2, Table 3): HKDF-SHA256.
    public var kdfIdentifier: UInt16 { 0x0001 }

    /// The AEAD identifier (RFC 9180 section 7.3, Table 5).
    public var aeadIdentifier: UInt16 {
        switch self {
        case .p256SHA256AES128GCM: return 0x0001
        case .p256SHA256AES256GCM: return 0x0002
        }
    }

    /// The KEM's curve.
    public var curve: Curve { .p256 }

    /// Nenc: the length of an encapsulated key, an uncompressed P-256 point (RFC 9180 section
    /// 7.1.1).
    public var encapsulatedKeyByteCount: Int { 65 }

    public var description: String {
        switch self {
        case .p256SHA256AES128GCM: return "DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-128-GCM"
        case .p256SHA256AES256GCM: return "DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-256-GCM"
        }
    }

    /// Nsecret: the length of the KEM's shared secret (RFC 9180 section 7.1, Table 2).
    var kemSecretByteCount: Int { 32 }

    /// The AEAD's cipher, whose key length is Nk (RFC 9180 section 7.3, Table 5).
    var keyLength: AESGCM.KeyLength {
        switch self {
        case .p256SHA256AES128GCM: return .bits128
        case .p256SHA256AES256GCM: return .bits256
        }
    }

    /// Nn: the AEAD nonce length.
    var nonceByteCount: Int { AESGCM.nonceByteCount }

    /// The KEM's `suite_id`: `"KEM" || I2OSP(kem_id, 2)` (RFC 9180 section 4.1).
    var kemSuiteIdentifier: [UInt8] {
        Array("KEM".utf8) + Self.bigEndian(kemIdentifier)
    }

    /// The suite's `suite_id`: `"HPKE" || I2OSP(kem_id, 2) || I2OSP(kdf_id, 2) || I2OSP(aead_id, 2)`
    /// (RFC 9180 section 5.1).
    var suiteIdentifier: [UInt8] {
        Array("HPKE".utf8) + Self.bigEndian(kemIdentifier) + Self.bigEndian(kdfIdentifier) + Self.bigEndian(aeadIdentifier)
    }

    /// I2OSP(value, 2) (RFC 8017 section 4.1).
    static func bigEndian(_ value: UInt16) -> [UInt8] {
        [UInt8(value >> 8), UInt8(value & 0xFF)]
    }
}
