/// Where each field of a DER certificate lies (RFC 5280 section 4.1), found by walking its TLVs
/// without decoding the field values.
///
/// The walk checks the whole structure: every length definite and minimal, every field of
/// `Certificate` and `TBSCertificate` present with its tag and in its place, nothing left over.
/// The field values are then read by OpenSSL's decoder for each one (names, times, algorithm
/// identifiers, extensions) or, for the subject public key, imported from its raw point, which
/// costs a fraction of decoding the whole certificate with OpenSSL 3.0's `d2i_X509`.
struct CertificateLayout {
    /// An AlgorithmIdentifier (RFC 5280 section 4.1.1.2).
    struct AlgorithmIdentifier {
        /// The whole encoding.
        let encoding: Range<Int>
        /// The contents octets of the algorithm OBJECT IDENTIFIER.
        let algorithm: Range<Int>
        /// The parameters, when present.
        let parameters: DERReader.Element?
    }

    /// A BIT STRING's unused-bits count and its octets.
    struct BitString {
        /// The number of unused bits in the last octet (0 to 7).
        let unusedBits: UInt8
        /// The octets after the unused-bits octet.
        let octets: Range<Int>
    }

    /// The whole tbsCertificate encoding: the octets the issuer signed.
    let tbsCertificate: Range<Int>
    /// The version as encoded (0 for v1, 2 for v3); `nil` when the INTEGER is not one octet.
    /// An absent version is v1 (0).
    let version: Int?
    /// The serialNumber INTEGER.
    let serialNumber: Range<Int>
    /// The signature AlgorithmIdentifier inside tbsCertificate.
    let tbsSignatureAlgorithm: Range<Int>
    /// The issuer Name.
    let issuer: Range<Int>
    /// The notBefore Time (UTCTime or GeneralizedTime).
    let notBefore: Range<Int>
    /// The notAfter Time.
    let notAfter: Range<Int>
    /// The subject Name.
    let subject: Range<Int>
    /// The subjectPublicKeyInfo algorithm.
    let publicKeyAlgorithm: AlgorithmIdentifier
    /// The subjectPublicKey.
    let publicKey: BitString
    /// Whether issuerUniqueID or subjectUniqueID is present (RFC 5280 section 4.1.2.8).
    let hasUniqueIdentifiers: Bool
    /// The Extensions SEQUENCE inside the `[3]` wrapper, when present.
    let extensions: Range<Int>?
    /// The outer signatureAlgorithm.
    let signatureAlgorithm: Range<Int>
    /// The signatureValue.
    let signature: BitString

    private static let sequence: UInt8 = 0x30
    private static let integer: UInt8 = 0x02
    private static let bitString: UInt8 = 0x03
    private static let objectIdentifier: UInt8 = 0x06
    private static let utcTime: UInt8 = 0x17
    private static let generalizedTime: UInt8 = 0x18

    /// Walks `bytes`, which must hold exactly one certificate.
    init(derEncoded bytes: [UInt8]) throws(CryptoError) {
        guard !bytes.isEmpty else {
            throw CryptoError(.invalidEncoding, "certificate: the DER input is empty")
        }
        var outer = DERReader(bytes, range: 0..<bytes.count, what: "certificate")
        let certificate = try outer.read("Certificate", tag: Self.sequence)
        guard outer.isAtEnd else {
            throw X509Handle.trailingBytes(bytes.count - certificate.encoding.count, after: certificate.encoding.count)
        }
        var fields = outer.contents(of: certificate)
        let tbs = try fields.read("tbsCertificate", tag: Self.sequence)
        signatureAlgorithm = try fields.read("signatureAlgorithm", tag: Self.sequence).encoding
        signature = try Self.bitString("signatureValue", in: &fields, bytes: bytes)
        try fields.expectEnd(of: "Certificate")
        tbsCertificate = tbs.encoding

        var reader = outer.contents(of: tbs)
        if let explicit = try reader.readIfPresent("version", tag: 0xa0) {
            var inner = reader.contents(of: explicit)
            let number = try inner.read("version", tag: Self.integer)
            try inner.expectEnd(of: "version")
            version = number.contents.count == 1 ? Int(Int8(bitPattern: bytes[number.contents.lowerBound])) : nil
        } else {
            version = 0
        }
        serialNumber = try reader.read("serialNumber", tag: Self.integer).encoding
        tbsSignatureAlgorithm = try reader.read("signature", tag: Self.sequence).encoding
        issuer = try reader.read("issuer", tag: Self.sequence).encoding
        var validity = reader.contents(of: try reader.read("validity", tag: Self.sequence))
        notBefore = try Self.time("notBefore", in: &validity)
        notAfter = try Self.time("notAfter", in: &validity)
        try validity.expectEnd(of: "validity")
        subject = try reader.read("subject", tag: Self.sequence).encoding
        var keyInfo = reader.contents(of: try reader.read("subjectPublicKeyInfo", tag: Self.sequence))
        let algorithm = try keyInfo.read("subjectPublicKeyInfo algorithm", tag: Self.sequence)
        var algorithmFields = keyInfo.contents(of: algorithm)
        let algorithmOID = try algorithmFields.read("subjectPublicKeyInfo algorithm", tag: Self.objectIdentifier)
        var parameters: DERReader.Element?
        if let tag = algorithmFields.nextTag {
            parameters = try algorithmFields.read("subjectPublicKeyInfo parameters", tag: tag)
        }
        try algorithmFields.expectEnd(of: "subjectPublicKeyInfo algorithm")
        publicKeyAlgorithm = AlgorithmIdentifier(
            encoding: algorithm.encoding, algorithm: algorithmOID.contents, parameters: parameters)
        publicKey = try Self.bitString("subjectPublicKey", in: &keyInfo, bytes: bytes)
        try keyInfo.expectEnd(of: "subjectPublicKeyInfo")
        let issuerUniqueID = try reader.readIfPresent("issuerUniqueID", tag: 0x81)
        let subjectUniqueID = try reader.readIfPresent("subjectUniqueID", tag: 0x82)
        hasUniqueIdentifiers = issuerUniqueID != nil || subjectUniqueID != nil
        if let explicit = try reader.readIfPresent("extensions", tag: 0xa3) {
            var inner = reader.contents(of: explicit)
            extensions = try inner.read("extensions", tag: Self.sequence).encoding
            try inner.expectEnd(of: "extensions")
        } else {
            extensions = nil
        }
        try reader.expectEnd(of: "tbsCertificate")
    }

    /// A UTCTime or GeneralizedTime element (RFC 5280 section 4.1.2.5).
    private static func time(_ field: String, in reader: inout DERReader) throws(CryptoError) -> Range<Int> {
        let tag = reader.nextTag == generalizedTime ? generalizedTime : utcTime
        return try reader.read(field, tag: tag).encoding
    }

    /// A BIT STRING: at least the unused-bits octet, which is 0 to 7 and 0 when nothing follows
    /// (X.690 8.6.2).
    private static func bitString(_ field: String, in reader: inout DERReader, bytes: [UInt8]) throws(CryptoError) -> BitString {
        let element = try reader.read(field, tag: bitString)
        guard let unused = element.contents.first.map({ bytes[$0] }) else {
            throw reader.failure(field, at: element.encoding.lowerBound, "a BIT STRING without its unused-bits octet")
        }
        guard unused <= 7, unused == 0 || element.contents.count > 1 else {
            throw reader.failure(field, at: element.encoding.lowerBound, "\(unused) unused bits, which X.690 8.6.2 does not allow here")
        }
        return BitString(unusedBits: unused, octets: (element.contents.lowerBound + 1)..<element.contents.upperBound)
    }
}
