extension VerificationCheck {
    /// What a check checks: one step of ISO/IEC 18013-5 9.3.1, 9.1.3 or 9.1.4, or an
    /// application's own rule.
    ///
    /// The kinds of the standard are static members; a ``DocumentVerifierPolicy`` of an
    /// application names its own with ``init(_:mechanism:)``. Each kind belongs to one
    /// ``Mechanism``, which decides what its failure means for the document: a failed check of
    /// issuer data authentication makes the issuer data untrusted, one of mdoc authentication
    /// makes the document fail device authentication. A kind reads as its ``name``, the `check`
    /// of the JSON report (docs/json-report.md).
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        /// The authentication mechanisms of ISO/IEC 18013-5 9.1 a check can be part of.
        public enum Mechanism: Sendable, Hashable {
            /// Issuer data authentication (9.1.2, 9.3.1): the data is the issuer's, as signed.
            case issuerDataAuthentication
            /// mdoc authentication (9.1.3): the data comes from the device it was issued to.
            case mdocAuthentication
            /// mdoc reader authentication (9.1.4): who asks for the data.
            case readerAuthentication
        }

        private enum Storage: Sendable, Hashable {
            case structure, issuerCertificate, issuerSignature, validity, docType, digestAlgorithm, valueDigest
            case deviceAuthentication, keyAuthorization
            case readerCertificate, readerSignature
            indirect case named(String, Mechanism)
        }

        private let storage: Storage

        private init(_ storage: Storage) {
            self.storage = storage
        }

        /// A kind of check of an application's own, named `name` (as reports print it) and part
        /// of `mechanism`. Two kinds are the same when both name and mechanism are; choose a
        /// name that no kind of the standard has.
        public init(_ name: String, mechanism: Mechanism) {
            storage = .named(name, mechanism)
        }

        /// The name reports print, for example `issuer certificate`.
        public var name: String {
            switch storage {
            case .structure: return "structure"
            case .issuerCertificate: return "issuer certificate"
            case .issuerSignature: return "issuer signature"
            case .validity: return "validity"
            case .docType: return "docType"
            case .digestAlgorithm: return "digest algorithm"
            case .valueDigest: return "value digest"
            case .deviceAuthentication: return "device authentication"
            case .keyAuthorization: return "key authorization"
            case .readerCertificate: return "reader certificate"
            case .readerSignature: return "reader signature"
            case .named(let name, _): return name
            }
        }

        /// The mechanism the check is part of.
        public var mechanism: Mechanism {
            switch storage {
            case .structure, .issuerCertificate, .issuerSignature, .validity, .docType, .digestAlgorithm, .valueDigest:
                return .issuerDataAuthentication
            case .deviceAuthentication, .keyAuthorization:
                return .mdocAuthentication
            case .readerCertificate, .readerSignature:
                return .readerAuthentication
            case .named(_, let mechanism):
                return mechanism
            }
        }

        /// The ``name``.
        public var description: String { name }

        // MARK: Issuer data authentication (9.1.2, 9.3.1)

        /// The structure decodes (MSO, COSE objects, embedded items).
        public static let structure = Kind(.structure)
        /// The document signer certificate chains to a trust anchor under the Annex B profile
        /// (18013-5 9.3.3, B.1).
        public static let issuerCertificate = Kind(.issuerCertificate)
        /// The IssuerAuth COSE_Sign1 verifies with the document signer key (9.1.2.4).
        public static let issuerSignature = Kind(.issuerSignature)
        /// The MSO validity window contains the verification time (9.3.1 step 5).
        public static let validity = Kind(.validity)
        /// The MSO docType equals the document's docType (9.3.1 step 4).
        public static let docType = Kind(.docType)
        /// The MSO digest algorithm is one 18013-5 allows (9.1.2.5).
        public static let digestAlgorithm = Kind(.digestAlgorithm)
        /// A returned element's digest equals the MSO's value digest (9.3.1 step 3).
        public static let valueDigest = Kind(.valueDigest)
        /// The document signer's countryName is its IACA's, and the issuing country the
        /// document returns is the same (Annex B; ``IACACountryPolicy``).
        public static let issuerCountry = Kind("issuer country", mechanism: .issuerDataAuthentication)
        /// The trust anchor is trusted for the document's type (Annex C.1.7;
        /// ``TrustScopePolicy``).
        public static let trustScope = Kind("trust scope", mechanism: .issuerDataAuthentication)
        /// Neither the document signer certificate nor the document has been revoked, as the
        /// application's status information says (``RevocationPolicy``).
        public static let revocation = Kind("revocation", mechanism: .issuerDataAuthentication)

        // MARK: mdoc authentication (9.1.3)

        /// DeviceSignature or DeviceMac verifies over DeviceAuthenticationBytes (9.1.3).
        public static let deviceAuthentication = Kind(.deviceAuthentication)
        /// Device-signed elements are authorised by the MSO KeyAuthorizations (9.1.2.4).
        public static let keyAuthorization = Kind(.keyAuthorization)

        // MARK: mdoc reader authentication (9.1.4)

        /// The reader certificate chains to a trusted reader root under the Annex B profile.
        public static let readerCertificate = Kind(.readerCertificate)
        /// ReaderAuth verifies over ReaderAuthenticationBytes (9.1.4).
        public static let readerSignature = Kind(.readerSignature)
    }
}
