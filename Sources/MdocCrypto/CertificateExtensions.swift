import COpenSSL

extension Certificate {
    /// The key usage bits (RFC 5280 section 4.2.1.3). ISO/IEC 18013-5 Annex B asks for
    /// digitalSignature in document signer and reader authentication certificates and for
    /// keyCertSign and cRLSign in IACA and reader root certificates.
    public struct KeyUsage: OptionSet, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        /// Bit 0.
        public static let digitalSignature = KeyUsage(rawValue: 1 << 0)
        /// Bit 1 (also called contentCommitment).
        public static let nonRepudiation = KeyUsage(rawValue: 1 << 1)
        /// Bit 2.
        public static let keyEncipherment = KeyUsage(rawValue: 1 << 2)
        /// Bit 3.
        public static let dataEncipherment = KeyUsage(rawValue: 1 << 3)
        /// Bit 4.
        public static let keyAgreement = KeyUsage(rawValue: 1 << 4)
        /// Bit 5.
        public static let keyCertSign = KeyUsage(rawValue: 1 << 5)
        /// Bit 6.
        public static let cRLSign = KeyUsage(rawValue: 1 << 6)
        /// Bit 7.
        public static let encipherOnly = KeyUsage(rawValue: 1 << 7)
        /// Bit 8.
        public static let decipherOnly = KeyUsage(rawValue: 1 << 8)

        private static let names = [
            "digitalSignature", "nonRepudiation", "keyEncipherment", "dataEncipherment", "keyAgreement",
            "keyCertSign", "cRLSign", "encipherOnly", "decipherOnly",
        ]

        /// The RFC 5280 names of the bits set, e.g. `keyCertSign, cRLSign`.
        public var description: String {
            let set = Self.names.indices.filter { rawValue & (1 << $0) != 0 }.map { Self.names[$0] }
            return set.isEmpty ? "none" : set.joined(separator: ", ")
        }

        /// Reads the extension from a certificate's extension list with OpenSSL; `nil` when absent.
        init?(in extensions: OpaquePointer?) throws(CryptoError) {
            let bits: UInt16? = try X509Fields.decodedExtension(
                NID_key_usage, named: "keyUsage", in: extensions,
                read: { raw in
                    let bitString = raw.assumingMemoryBound(to: ASN1_BIT_STRING.self)
                    var value: UInt16 = 0
                    for bit in Self.names.indices where ASN1_BIT_STRING_get_bit(bitString, Int32(bit)) == 1 {
                        value |= 1 << bit
                    }
                    return value
                },
                free: { ASN1_BIT_STRING_free($0.assumingMemoryBound(to: ASN1_BIT_STRING.self)) }
            )
            guard let bits else { return nil }
            self.init(rawValue: bits)
        }
    }

    /// The basic constraints extension (RFC 5280 section 4.2.1.9).
    public struct BasicConstraints: Sendable, Hashable, CustomStringConvertible {
        /// The cA flag.
        public let isCA: Bool
        /// pathLenConstraint: how many non-self-issued intermediate CA certificates may follow
        /// this one; `nil` when absent (no limit).
        public let pathLength: Int?

        /// The extension with cA `isCA` and pathLenConstraint `pathLength`.
        public init(isCA: Bool, pathLength: Int?) {
            self.isCA = isCA
            self.pathLength = pathLength
        }

        public var description: String {
            "cA=\(isCA)" + (pathLength.map { ", pathLenConstraint=\($0)" } ?? "")
        }

        /// Reads the extension from a certificate's extension list with OpenSSL; `nil` when absent.
        init?(in extensions: OpaquePointer?) throws(CryptoError) {
            let value: BasicConstraints? = try X509Fields.decodedExtension(
                NID_basic_constraints, named: "basicConstraints", in: extensions,
                read: { (raw: UnsafeMutableRawPointer) throws(CryptoError) -> BasicConstraints in
                    let constraints = raw.assumingMemoryBound(to: BASIC_CONSTRAINTS.self).pointee
                    guard let pathLength = constraints.pathlen else {
                        return BasicConstraints(isCA: constraints.ca != 0, pathLength: nil)
                    }
                    var length: Int64 = 0
                    guard ASN1_INTEGER_get_int64(&length, pathLength) == 1, length >= 0, length <= Int64(Int32.max) else {
                        ERR_clear_error()
                        throw CryptoError(
                            .invalidEncoding,
                            "certificate: basicConstraints pathLenConstraint is negative or out of range"
                        )
                    }
                    return BasicConstraints(isCA: constraints.ca != 0, pathLength: Int(length))
                },
                free: { BASIC_CONSTRAINTS_free($0.assumingMemoryBound(to: BASIC_CONSTRAINTS.self)) }
            )
            guard let value else { return nil }
            self = value
        }
    }

    /// The algorithm of a certificate signature (RFC 5280 section 4.1.1.2), identified by OID.
    /// Equality compares the OID.
    public struct SignatureAlgorithm: Sendable, Hashable, CustomStringConvertible {
        /// The dotted OID, e.g. `1.2.840.10045.4.3.2`.
        public let oid: String
        /// OpenSSL's short name, e.g. `ecdsa-with-SHA256`, or the OID when OpenSSL has none.
        public let name: String

        /// ecdsa-with-SHA256 (RFC 5758 section 3.2).
        public static let ecdsaWithSHA256 = SignatureAlgorithm(oid: "1.2.840.10045.4.3.2", name: "ecdsa-with-SHA256")
        /// ecdsa-with-SHA384 (RFC 5758 section 3.2).
        public static let ecdsaWithSHA384 = SignatureAlgorithm(oid: "1.2.840.10045.4.3.3", name: "ecdsa-with-SHA384")
        /// ecdsa-with-SHA512 (RFC 5758 section 3.2).
        public static let ecdsaWithSHA512 = SignatureAlgorithm(oid: "1.2.840.10045.4.3.4", name: "ecdsa-with-SHA512")
        /// Ed25519 (RFC 8410 section 3).
        public static let ed25519 = SignatureAlgorithm(oid: "1.3.101.112", name: "ED25519")
        /// Ed448 (RFC 8410 section 3).
        public static let ed448 = SignatureAlgorithm(oid: "1.3.101.113", name: "ED448")

        /// The certificate signature algorithms ISO/IEC 18013-5 Annex B allows: ECDSA with
        /// SHA-256/384/512 and EdDSA (Ed25519, Ed448).
        public static let iso18013_5Allowed: Set<SignatureAlgorithm> = [
            .ecdsaWithSHA256, .ecdsaWithSHA384, .ecdsaWithSHA512, .ed25519, .ed448,
        ]

        /// The algorithm with object identifier `oid` (dotted decimal), shown as `name`.
        public init(oid: String, name: String) {
            self.oid = oid
            self.name = name
        }

        public var description: String { name }

        public static func == (lhs: SignatureAlgorithm, rhs: SignatureAlgorithm) -> Bool { lhs.oid == rhs.oid }
        public func hash(into hasher: inout Hasher) { hasher.combine(oid) }

        /// The algorithms above by OpenSSL's numeric identifier, read without writing the OID as
        /// text.
        static let byNID: [Int32: SignatureAlgorithm] = [
            NID_ecdsa_with_SHA256: .ecdsaWithSHA256, NID_ecdsa_with_SHA384: .ecdsaWithSHA384,
            NID_ecdsa_with_SHA512: .ecdsaWithSHA512, NID_ED25519: .ed25519, NID_ED448: .ed448,
        ]

        /// Reads a certificate's signatureAlgorithm from its OpenSSL structure.
        init(_ algorithm: UnsafePointer<X509_ALGOR>) {
            var object: OpaquePointer? = nil
            X509_ALGOR_get0(&object, nil, nil, algorithm)
            let nid = object.map { OBJ_obj2nid($0) } ?? NID_undef
            if let known = Self.byNID[nid] {
                self = known
                return
            }
            let oid = X509Fields.dottedOID(object)
            let shortName = nid == NID_undef ? nil : OBJ_nid2sn(nid).map { String(cString: $0) }
            self.init(oid: oid, name: shortName ?? oid)
        }
    }
}
