import MdocCBOR

extension VICAL {
    /// `CertificateInfo` (ISO/IEC 18013-5 Annex C.1.7): one IACA certificate of a VICAL and the
    /// document types it may anchor.
    ///
    /// ```
    /// CertificateInfo = {
    ///   "certificate": bstr,             ; DER
    ///   "serialNumber": biguint,
    ///   "ski": bstr,                     ; the certificate's subject key identifier
    ///   "docType": [+ tstr],
    ///   ? "certificateProfile": [+ tstr],
    ///   ? "issuingAuthority": tstr,
    ///   ? "issuingCountry": tstr,
    ///   ? "stateOrProvinceName": tstr,
    ///   ? "issuer": bstr,                ; DER Name
    ///   ? "subject": bstr,               ; DER Name
    ///   ? "notBefore": tdate,
    ///   ? "notAfter": tdate,
    ///   ? "extensions": Extensions,
    ///   * tstr => any                    ; RFU
    /// }
    /// ```
    /// The fields that restate the certificate (serial number, SKI, names, dates) are read as
    /// they are; whether they match the certificate is the verifier's question.
    public struct CertificateInfo: CBORRepresentable, Hashable {
        /// The most document types one entry may list here.
        public static let maximumDocTypes = 64

        /// The IACA certificate, DER.
        public var certificate: [UInt8]
        /// The certificate's serial number, big-endian, as received (`biguint`, RFC 8949 3.4.3).
        public var serialNumber: [UInt8]
        /// The certificate's subject key identifier.
        public var ski: [UInt8]
        /// The document types the certificate may anchor (at least one).
        public var docType: [String]
        /// The certificate profiles the entry names.
        public var certificateProfile: [String]?
        /// The issuing authority's name.
        public var issuingAuthority: String?
        /// The issuing country (ISO 3166-1 alpha-2).
        public var issuingCountry: String?
        /// The state or province.
        public var stateOrProvinceName: String?
        /// The certificate's issuer Name, DER.
        public var issuer: [UInt8]?
        /// The certificate's subject Name, DER.
        public var subject: [UInt8]?
        /// The start of the certificate's validity.
        public var notBefore: TDate?
        /// The end of the certificate's validity.
        public var notAfter: TDate?
        /// `Extensions = {* tstr => any}`, as received.
        public var extensions: CBORMap?
        /// Entries with keys not modelled above, in received order.
        public var additionalEntries: CBORMap

        /// Builds the structure from its parts.
        public init(
            certificate: [UInt8], serialNumber: [UInt8], ski: [UInt8], docType: [String], certificateProfile: [String]? = nil,
            issuingAuthority: String? = nil, issuingCountry: String? = nil, stateOrProvinceName: String? = nil,
            issuer: [UInt8]? = nil, subject: [UInt8]? = nil, notBefore: TDate? = nil, notAfter: TDate? = nil,
            extensions: CBORMap? = nil, additionalEntries: CBORMap = CBORMap()
        ) {
            self.certificate = certificate
            self.serialNumber = serialNumber
            self.ski = ski
            self.docType = docType
            self.certificateProfile = certificateProfile
            self.issuingAuthority = issuingAuthority
            self.issuingCountry = issuingCountry
            self.stateOrProvinceName = stateOrProvinceName
            self.issuer = issuer
            self.subject = subject
            self.notBefore = notBefore
            self.notAfter = notAfter
            self.extensions = extensions
            self.additionalEntries = additionalEntries
        }

        public init(cbor: CBOR, at path: CBORPath) throws(CBORError) {
            let map = try cbor.map(at: path)
            certificate = try map.required("certificate", at: path).bytes(at: path.appending(key: "certificate"))
            let serialPath = path.appending(key: "serialNumber")
            serialNumber = try map.required("serialNumber", at: path).tagContent(CBOR.Tag.unsignedBignum, at: serialPath)
                .bytes(at: serialPath.appending(.tagContent(CBOR.Tag.unsignedBignum)))
            ski = try map.required("ski", at: path).bytes(at: path.appending(key: "ski"))
            let docTypePath = path.appending(key: "docType")
            docType = try map.required("docType", at: path).nonEmptyArray(at: docTypePath) { (item, itemPath) throws(CBORError) in
                try item.text(at: itemPath)
            }
            guard docType.count <= Self.maximumDocTypes else {
                throw CBORError(
                    .itemCountLimitExceeded, "the entry lists \(docType.count) document types, more than the maximum \(Self.maximumDocTypes)",
                    path: docTypePath)
            }
            certificateProfile = try map[text: "certificateProfile"].map { (value) throws(CBORError) in
                try value.nonEmptyArray(at: path.appending(key: "certificateProfile")) { (item, itemPath) throws(CBORError) in
                    try item.text(at: itemPath)
                }
            }
            issuingAuthority = try Self.text(map, "issuingAuthority", at: path)
            issuingCountry = try Self.text(map, "issuingCountry", at: path)
            stateOrProvinceName = try Self.text(map, "stateOrProvinceName", at: path)
            issuer = try map[text: "issuer"].map { (value) throws(CBORError) in try value.bytes(at: path.appending(key: "issuer")) }
            subject = try map[text: "subject"].map { (value) throws(CBORError) in try value.bytes(at: path.appending(key: "subject")) }
            notBefore = try map[text: "notBefore"].map { (value) throws(CBORError) in
                try TDate(cbor: value, at: path.appending(key: "notBefore"))
            }
            notAfter = try map[text: "notAfter"].map { (value) throws(CBORError) in
                try TDate(cbor: value, at: path.appending(key: "notAfter"))
            }
            extensions = try map[text: "extensions"].map { (value) throws(CBORError) in
                try value.map(at: path.appending(key: "extensions"))
            }
            additionalEntries = map.entries(excludingText: Self.keys)
        }

        public var cbor: CBOR {
            var map = CBORMap()
            map.append("certificate", .byteString(CBORBytes(certificate)))
            map.append("serialNumber", .tagged(CBOR.Tag.unsignedBignum, .byteString(CBORBytes(serialNumber))))
            map.append("ski", .byteString(CBORBytes(ski)))
            map.append("docType", .array(docType.map { .textString($0) }))
            if let certificateProfile { map.append("certificateProfile", .array(certificateProfile.map { .textString($0) })) }
            if let issuingAuthority { map.append("issuingAuthority", .textString(issuingAuthority)) }
            if let issuingCountry { map.append("issuingCountry", .textString(issuingCountry)) }
            if let stateOrProvinceName { map.append("stateOrProvinceName", .textString(stateOrProvinceName)) }
            if let issuer { map.append("issuer", .byteString(CBORBytes(issuer))) }
            if let subject { map.append("subject", .byteString(CBORBytes(subject))) }
            if let notBefore { map.append("notBefore", notBefore.cbor) }
            if let notAfter { map.append("notAfter", notAfter.cbor) }
            if let extensions { map.append("extensions", .map(extensions)) }
            map.append(contentsOf: additionalEntries)
            return .map(map)
        }

        /// The keys the CDDL names.
        private static let keys = [
            "certificate", "serialNumber", "ski", "docType", "certificateProfile", "issuingAuthority", "issuingCountry",
            "stateOrProvinceName", "issuer", "subject", "notBefore", "notAfter", "extensions",
        ]

        /// The optional text entry `key`.
        private static func text(_ map: CBORMap, _ key: String, at path: CBORPath) throws(CBORError) -> String? {
            try map[text: key].map { (value) throws(CBORError) in try value.text(at: path.appending(key: key)) }
        }
    }
}
