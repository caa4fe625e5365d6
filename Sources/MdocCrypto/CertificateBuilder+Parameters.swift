extension CertificateBuilder {
    /// The four ISO/IEC 18013-5 Annex B certificate profiles: two roots and the end-entity
    /// certificates they issue.
    public enum Profile: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// The IACA root certificate (ISO/IEC 18013-5 Annex B, Table B.1): self-signed; critical
        /// basicConstraints cA TRUE, pathLenConstraint 0; critical keyUsage keyCertSign, cRLSign;
        /// subjectKeyIdentifier; issuerAltName; cRLDistributionPoints.
        case iaca
        /// The document signer certificate (ISO/IEC 18013-5 Annex B, Table B.3), issued by an IACA:
        /// critical keyUsage digitalSignature; critical extendedKeyUsage 1.0.18013.5.1.2; both key
        /// identifiers; issuerAltName; cRLDistributionPoints; subject countryName equal to the
        /// IACA's.
        case documentSigner
        /// The mdoc reader root certificate (ISO/IEC 18013-5 Annex B): self-signed CA with the
        /// extensions of an IACA; issuerAltName and cRLDistributionPoints when given.
        case readerRoot
        /// The mdoc reader authentication certificate (ISO/IEC 18013-5 Annex B), issued by a reader
        /// root: critical keyUsage digitalSignature; critical extendedKeyUsage 1.0.18013.5.1.6;
        /// both key identifiers; issuerAltName and cRLDistributionPoints when given.
        case readerAuthentication

        public var description: String { rawValue }

        /// Whether the profile is a self-signed root (IACA, reader root).
        public var isRoot: Bool { self == .iaca || self == .readerRoot }

        /// The chain profile certificates of this profile are validated against.
        public var chainProfile: CertificateProfile {
            switch self {
            case .iaca, .documentSigner: return .documentSigner
            case .readerRoot, .readerAuthentication: return .readerAuthentication
            }
        }

        /// The profile of the certificate that issues this one: itself for a root.
        public var issuerProfile: Profile {
            switch self {
            case .iaca, .documentSigner: return .iaca
            case .readerRoot, .readerAuthentication: return .readerRoot
            }
        }

        /// Whether Annex B requires issuerAltName and cRLDistributionPoints (IACA and document
        /// signer, Tables B.1 and B.3).
        public var requiresIssuerInformation: Bool { self == .iaca || self == .documentSigner }

        /// The key usage bits (RFC 5280 section 4.2.1.3) the profile sets.
        var keyUsage: Certificate.KeyUsage {
            isRoot ? [.keyCertSign, .cRLSign] : .digitalSignature
        }

        /// The one extended key usage purpose of an end-entity profile.
        var extendedKeyUsageOID: String? {
            isRoot ? nil : chainProfile.extendedKeyUsageOID
        }
    }

    /// A departure from the ISO/IEC 18013-5 Annex B profile of an end-entity certificate, made
    /// on purpose so that a verifier has something to reject: negative test material. Each is
    /// one check of ``CertificateChainValidator`` made to fail.
    public enum Deviation: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// No extendedKeyUsage extension (check ``CertificateCheck/extendedKeyUsage``).
        case noExtendedKeyUsage = "no-eku"
        /// The other role's extended key usage: a document signer with 1.0.18013.5.1.6, a reader
        /// certificate with 1.0.18013.5.1.2 (check ``CertificateCheck/extendedKeyUsage``).
        case wrongExtendedKeyUsage = "wrong-eku"
        /// keyUsage without digitalSignature, nonRepudiation only (check
        /// ``CertificateCheck/keyUsage``).
        case noDigitalSignature = "no-digital-signature"
        /// No subjectKeyIdentifier (check ``CertificateCheck/keyIdentifiers``).
        case noSubjectKeyIdentifier = "no-subject-key-id"
        /// No authorityKeyIdentifier (check ``CertificateCheck/keyIdentifiers``).
        case noAuthorityKeyIdentifier = "no-authority-key-id"
        /// A CA certificate in the end-entity's place: critical basicConstraints cA TRUE, and
        /// keyCertSign besides digitalSignature (check ``CertificateCheck/basicConstraints``).
        case certificateAuthority = "ca"

        /// The name options and test-material marks use, such as `no-eku`.
        public var description: String { rawValue }

        /// What the certificate lacks or has, for people: `no extendedKeyUsage`.
        public var explanation: String {
            switch self {
            case .noExtendedKeyUsage: return "no extendedKeyUsage"
            case .wrongExtendedKeyUsage: return "the other role's extendedKeyUsage"
            case .noDigitalSignature: return "keyUsage without digitalSignature"
            case .noSubjectKeyIdentifier: return "no subjectKeyIdentifier"
            case .noAuthorityKeyIdentifier: return "no authorityKeyIdentifier"
            case .certificateAuthority: return "a CA certificate (cA TRUE and keyCertSign)"
            }
        }
    }

    /// A subject distinguished name (RFC 5280 section 4.1.2.6) with the attributes ISO/IEC 18013-5
    /// Annex B uses: countryName (mandatory, ISO 3166-1 alpha-2), stateOrProvinceName and
    /// organizationName (optional), commonName (mandatory), and organizationalUnitName, which
    /// marks test material. Encoded in the order C, ST, O, OU, CN.
    public struct DistinguishedName: Sendable, Hashable, CustomStringConvertible {
        /// The countryName: two upper-case letters (ISO 3166-1 alpha-2), a PrintableString.
        public var country: String
        /// The stateOrProvinceName, if any.
        public var stateOrProvince: String?
        /// The organizationName, if any.
        public var organization: String?
        /// organizationalUnitName attributes, one per value, in order; this toolkit writes
        /// `TEST: ...` here on certificates made to fail (``CertificateBuilder/deviations``).
        public var organizationalUnits: [String] = []
        /// The commonName.
        public var commonName: String

        /// A name from its attributes.
        public init(commonName: String, country: String, stateOrProvince: String? = nil, organization: String? = nil) {
            self.commonName = commonName
            self.country = country
            self.stateOrProvince = stateOrProvince
            self.organization = organization
        }

        /// `C=US, ST=..., O=..., CN=...`, unescaped.
        public var description: String {
            var parts = ["C=\(country)"]
            if let stateOrProvince { parts.append("ST=\(stateOrProvince)") }
            if let organization { parts.append("O=\(organization)") }
            parts += organizationalUnits.map { "OU=\($0)" }
            parts.append("CN=\(commonName)")
            return parts.joined(separator: ", ")
        }
    }

    /// The one GeneralName of an issuerAltName extension (RFC 5280 section 4.2.1.7): ISO/IEC
    /// 18013-5 Annex B allows an rfc822Name or a uniformResourceIdentifier.
    public enum AlternativeName: Sendable, Hashable, CustomStringConvertible {
        /// A uniformResourceIdentifier (IA5String), e.g. `https://issuer.example/`.
        case uri(String)
        /// An rfc822Name (IA5String), e.g. `iaca@issuer.example`.
        case email(String)

        public var description: String {
            switch self {
            case .uri(let value): return "URI:\(value)"
            case .email(let value): return "email:\(value)"
            }
        }
    }
}
