import COpenSSL

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads the OpenSSL structures of certificate fields into Swift values (RFC 5280 section 4.1).
///
/// Every read goes through OpenSSL's accessors and decoders; nothing here parses DER.
enum X509Fields {
    /// The flags for `X509_NAME_print_ex`: RFC 4514 section 2.4 escaping, UTF-8 output, short
    /// attribute names ("CN", "C", "O"), unknown attributes as `#` hex, and ", " / " + " between
    /// RDNs and attributes, in the order the RDNs are encoded.
    private static let nameFlags = UInt(
        ASN1_STRFLGS_ESC_2253 | ASN1_STRFLGS_ESC_CTRL | ASN1_STRFLGS_UTF8_CONVERT
            | ASN1_STRFLGS_DUMP_UNKNOWN | ASN1_STRFLGS_DUMP_DER
    ) | UInt(XN_FLAG_SEP_CPLUS_SPC) | UInt(XN_FLAG_FN_SN) | UInt(XN_FLAG_DUMP_UNKNOWN_FIELDS)

    /// A distinguished name as text, e.g. `CN=utopia ds, C=US`.
    static func name(_ name: OpaquePointer?, field: String) throws(CryptoError) -> String {
        guard let name, let bio = BIO_new(BIO_s_mem()) else {
            throw CryptoError(.invalidEncoding, "certificate: the \(field) name is missing")
        }
        defer { BIO_free(bio) }
        guard X509_NAME_print_ex(bio, name, 0, nameFlags) >= 0 else {
            ERR_clear_error()
            throw CryptoError(.invalidEncoding, "certificate: the \(field) name does not print")
        }
        var data: UnsafeMutablePointer<CChar>? = nil
        let length = BIO_ctrl(bio, BIO_CTRL_INFO, 0, &data)
        guard length > 0, let data else { return "" }
        return data.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
            String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self)
        }
    }

    /// The value of the first attribute `nid` in a name, as UTF-8 text.
    static func attribute(_ nid: Int32, in name: OpaquePointer?) -> String? {
        guard let name else { return nil }
        let index = X509_NAME_get_index_by_NID(name, nid, -1)
        guard index >= 0, let entry = X509_NAME_get_entry(name, index),
            let value = X509_NAME_ENTRY_get_data(entry)
        else { return nil }
        return utf8(value)
    }

    /// An ASN.1 string converted to UTF-8 by OpenSSL.
    static func utf8(_ string: UnsafePointer<ASN1_STRING>) -> String? {
        var output: UnsafeMutablePointer<UInt8>? = nil
        let length = ASN1_STRING_to_UTF8(&output, string)
        guard length >= 0, let output else {
            ERR_clear_error()
            return nil
        }
        defer { CRYPTO_free(output, #fileID, #line) }
        return String(decoding: UnsafeBufferPointer(start: output, count: Int(length)), as: UTF8.self)
    }

    /// The bytes of an ASN.1 string (OCTET STRING, INTEGER magnitude).
    static func bytes(_ string: UnsafePointer<ASN1_STRING>?) -> [UInt8] {
        guard let string, let data = ASN1_STRING_get0_data(string) else { return [] }
        let length = Int(ASN1_STRING_length(string))
        return Array(UnsafeBufferPointer(start: data, count: max(length, 0)))
    }

    /// An object identifier in dotted form, e.g. `1.0.18013.5.1.2`.
    static func dottedOID(_ object: OpaquePointer?) -> String {
        guard let object else { return "" }
        var buffer = [CChar](repeating: 0, count: 96)
        var length = Int(OBJ_obj2txt(&buffer, Int32(buffer.count), object, 1))
        if length >= buffer.count {
            buffer = [CChar](repeating: 0, count: length + 1)
            length = Int(OBJ_obj2txt(&buffer, Int32(buffer.count), object, 1))
        }
        guard length > 0 else { return "" }
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// An X.509 `Time` (UTCTime or GeneralizedTime, RFC 5280 section 4.1.2.5) as a `Date`.
    static func date(_ time: UnsafePointer<ASN1_TIME>?, field: String) throws(CryptoError) -> Date {
        var calendar = tm()
        guard let time, ASN1_TIME_to_tm(time, &calendar) == 1 else {
            ERR_clear_error()
            throw CryptoError(.invalidEncoding, "certificate: \(field) is not a valid X.509 time")
        }
        return X509Time.date(calendar)
    }

    /// Decodes the extension `nid` of the extension list `extensions` with OpenSSL
    /// (`X509V3_get_d2i`, what `X509_get_ext_d2i` does on a certificate), hands the decoded
    /// structure to `read` and frees it with `free`. `nil` when the extension is absent; an error
    /// when it appears twice (RFC 5280 section 4.2) or does not decode.
    static func decodedExtension<Value>(
        _ nid: Int32,
        named name: String,
        in extensions: OpaquePointer?,
        read: (UnsafeMutableRawPointer) throws(CryptoError) -> Value,
        free: (UnsafeMutableRawPointer) -> Void
    ) throws(CryptoError) -> Value? {
        var critical: Int32 = 0
        let decoded = X509V3_get_d2i(extensions, nid, &critical, nil)
        guard let decoded else {
            ERR_clear_error()
            switch critical {
            case -1: return nil
            case -2: throw CryptoError(.invalidEncoding, "certificate: the \(name) extension appears more than once")
            default: throw CryptoError(.invalidEncoding, "certificate: the \(name) extension does not decode")
            }
        }
        defer { free(decoded) }
        return try read(decoded)
    }
}
