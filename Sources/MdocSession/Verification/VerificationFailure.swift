import MdocCrypto

/// Why a ``VerificationCheck`` failed: a code a program compares and a reason for people.
///
/// The check's ``VerificationCheck/kind`` says *what* was checked; the code says *how* it
/// failed, so that a caller (or a test) tells an expired MSO from one not yet valid, or a digest
/// that does not match from one the MSO does not hold, without reading the message.
///
/// Equality compares the code only.
public struct VerificationFailure: Sendable, Hashable, CustomStringConvertible {
    /// How a check failed. New codes may be added without breaking callers.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String

        /// A code of an application's own, for the failures of its ``DocumentVerifierPolicy``,
        /// named `name` (as reports print it). Codes are equal when their names are; choose one
        /// that no code here has.
        public init(_ name: String) { self.name = name }

        /// The code's name, as tests, logs and `--json` print it.
        public var description: String { name }

        // MARK: Structure

        /// A structure inside the document (the MSO) does not decode.
        public static let malformedStructure = Code("malformedStructure")
        /// The DeviceResponse status is not 0 (OK), so its documents are not accepted
        /// (ISO/IEC 18013-5 8.3.2.1.2.3).
        public static let errorStatus = Code("errorStatus")

        // MARK: Certificates (9.3.3, Annex B)

        /// The COSE_Sign1 has no x5chain (COSE header 33).
        public static let missingCertificateChain = Code("missingCertificateChain")
        /// A certificate of the x5chain is not a readable X.509 certificate.
        public static let unreadableCertificate = Code("unreadableCertificate")

        /// Chain validation failed at `check`: for example `.certificate(.extendedKeyUsage)` for
        /// a reader certificate without the reader-authentication purpose (Annex B.1.7).
        public static func certificate(_ check: CertificateCheck) -> Code {
            Code("certificate.\(check)")
        }

        // MARK: Signatures and MACs (9.1.2.4, 9.1.3, 9.1.4)

        /// A COSE_Sign1 (IssuerAuth, DeviceSignature, ReaderAuth) does not verify with the key
        /// it must be made with, over the payload this session expects.
        public static let invalidSignature = Code("invalidSignature")
        /// The DeviceMac does not verify with EMacKey over this session's
        /// DeviceAuthenticationBytes (9.1.3.5).
        public static let invalidMAC = Code("invalidMAC")
        /// The DeviceSignature or DeviceMac carries an attached payload that is not this
        /// session's DeviceAuthenticationBytes (9.1.3.5 and 9.1.3.6 send them detached, as null).
        public static let payloadMismatch = Code("payloadMismatch")
        /// The MSO deviceKey is not a usable public key.
        public static let unusableDeviceKey = Code("unusableDeviceKey")
        /// EMacKey cannot be derived from the reader key and the MSO deviceKey (another curve).
        public static let macKeyDerivationFailed = Code("macKeyDerivationFailed")

        // MARK: The MSO (9.1.2.4, 9.3.1)

        /// The verification time is before the MSO validFrom.
        public static let notYetValid = Code("notYetValid")
        /// The verification time is after the MSO validUntil.
        public static let expired = Code("expired")
        /// The MSO was signed outside the validity of the document signer certificate.
        public static let signedOutsideCertificateValidity = Code("signedOutsideCertificateValidity")
        /// The MSO docType differs from the Document's docType.
        public static let docTypeMismatch = Code("docTypeMismatch")
        /// The MSO digestAlgorithm is not SHA-256, SHA-384 or SHA-512 (9.1.2.5).
        public static let unsupportedDigestAlgorithm = Code("unsupportedDigestAlgorithm")
        /// A value digest of the MSO is not as long as a digest of its digestAlgorithm: the
        /// digests were made with another algorithm than the MSO names.
        public static let digestAlgorithmMismatch = Code("digestAlgorithmMismatch")

        // MARK: Returned elements (9.3.1 step 3)

        /// The digest of the received IssuerSignedItemBytes differs from the MSO's.
        public static let digestMismatch = Code("digestMismatch")
        /// The element's digestID is not among the MSO digests of its name space.
        public static let digestIDNotInMSO = Code("digestIDNotInMSO")
        /// The MSO has no value digests for the element's name space.
        public static let nameSpaceNotInMSO = Code("nameSpaceNotInMSO")
        /// Two returned elements of one name space carry the same digestID.
        public static let duplicateDigestID = Code("duplicateDigestID")
        /// The element's random salt is shorter than 16 bytes (9.1.2.5).
        public static let randomTooShort = Code("randomTooShort")
        /// The MSO KeyAuthorizations do not allow the device key to sign the element (9.1.2.4).
        public static let notAuthorized = Code("notAuthorized")

        // MARK: Application rules

        /// The document signer's countryName is not its IACA's, one of them has none, or the
        /// issuing country the document returns names another country (Annex B;
        /// ``IACACountryPolicy``).
        public static let countryMismatch = Code("countryMismatch")
        /// The trust anchor is trusted for other document types than the document's (a VICAL
        /// entry's `docType`, Annex C.1.7; ``TrustScopePolicy``).
        public static let outOfTrustScope = Code("outOfTrustScope")
        /// The application's status information says that the document signer certificate, a
        /// certificate above it or the document itself has been revoked (``RevocationPolicy``).
        public static let revoked = Code("revoked")
        /// The document's issuer has suspended it (``RevocationStatus/suspended(_:)``).
        public static let suspended = Code("suspended")
        /// The application's status information cannot say whether the document or its signer
        /// has been revoked, and the ``RevocationPolicy`` does not accept that.
        public static let revocationStatusUnknown = Code("revocationStatusUnknown")
    }

    /// How the check failed; compare this, not the message.
    public var code: Code
    /// What was wrong, for people.
    public var reason: String

    /// A failure of kind `code`, explained by `reason`.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    /// The reason.
    public var description: String { reason }

    /// Compares the codes only.
    public static func == (lhs: VerificationFailure, rhs: VerificationFailure) -> Bool { lhs.code == rhs.code }
    /// Hashes the code only, matching `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
