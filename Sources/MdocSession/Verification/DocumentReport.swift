import MdocCrypto

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The verification of one Document of a DeviceResponse (18013-5 9.3.1): every check made and
/// every element returned.
public struct DocumentReport: Sendable {
    /// How verification of the document ended, from the most serious failure down.
    public enum Outcome: String, Sendable, Hashable {
        /// Issuer data authentication and device authentication both passed.
        case verified
        /// A check of issuer data authentication failed.
        case issuerAuthenticationFailed
        /// Issuer data verified; device authentication or key authorisation failed.
        case deviceAuthenticationFailed
        /// Issuer data verified; device authentication was not checked.
        case deviceAuthenticationNotChecked
    }

    /// How the mdoc authenticated (18013-5 9.1.3).
    public enum DeviceAuthenticationMethod: String, Sendable, Hashable {
        /// deviceSignature, a COSE_Sign1 by the MSO deviceKey (9.1.3.6).
        case signature = "DeviceSignature"
        /// deviceMac, a COSE_Mac0 with EMacKey (9.1.3.5).
        case mac = "DeviceMac"
    }

    /// The MSO validity information as received (tdate text) and interpreted.
    public struct Validity: Sendable, Hashable {
        /// When the MSO was signed.
        public var signed: Date
        /// The start of the MSO validity window.
        public var validFrom: Date
        /// The end of the MSO validity window.
        public var validUntil: Date
        /// When the issuer expects to update the MSO, if it said.
        public var expectedUpdate: Date?

        /// The validity as interpreted from ValidityInfo.
        public init(signed: Date, validFrom: Date, validUntil: Date, expectedUpdate: Date?) {
            self.signed = signed
            self.validFrom = validFrom
            self.validUntil = validUntil
            self.expectedUpdate = expectedUpdate
        }
    }

    /// A requested element the mdoc did not return, as the Document's `errors` reported it
    /// (8.3.2.1.2.2).
    public struct ElementError: Sendable, Hashable {
        /// The name space of the element.
        public var nameSpace: String
        /// The data element identifier.
        public var identifier: String
        /// The ErrorCode (0: data not returned).
        public var code: Int64

        /// An entry of the Document's `errors`.
        public init(nameSpace: String, identifier: String, code: Int64) {
            self.nameSpace = nameSpace
            self.identifier = identifier
            self.code = code
        }
    }

    /// The position of the document in `documents`.
    public var index: Int
    /// The document's docType.
    public var docType: String
    /// Every check made, in the order of 9.3.1.
    public var checks: ReportList<VerificationCheck>
    /// Every element returned, issuer signed then device signed.
    public var elements: ReportList<DisclosedElement>
    /// The subject of the document signer certificate, when the x5chain held one.
    public var documentSigner: String?
    /// The subject of the trust anchor the chain ended at, when it validated.
    public var trustAnchor: String?
    /// The certificates of the issuerAuth `x5chain`, leaf (the document signer) first, as far
    /// as they parse.
    public var certificateChain: [Certificate] = []
    /// Every check of the chain's validation under the Annex B document signer profile (the
    /// path built, each check passed and failed), when the chain parsed.
    public var chainValidation: CertificateValidationResult?
    /// The rule the document signer's extended key usage was checked against, the one
    /// ``DocumentSignerPolicy`` gives the doc type; `nil` in a report not made by a verifier.
    public var documentSignerRule: DocumentSignerRule?
    /// The MSO validity information, when the MSO decoded.
    public var validity: Validity?
    /// How the mdoc authenticated, when DeviceSigned said.
    public var deviceAuthenticationMethod: DeviceAuthenticationMethod?
    /// The document's status as a ``RevocationPolicy`` found it, when its MSO names where the
    /// status is published or the status was found revoked, suspended or unknown.
    public var status: DocumentStatus?
    /// The requested elements the mdoc reported as not returned, in received order.
    public var elementErrors: [ElementError]

    /// An empty report for the document at `index`.
    public init(index: Int, docType: String) {
        self.index = index
        self.docType = docType
        self.checks = []
        self.elements = []
        self.elementErrors = []
    }

    /// The outcome, from the most serious failure down: issuer data authentication failed
    /// unless every check of it passed, one on the issuer certificate and one on the issuer
    /// signature among them; then device authentication failed when a check of mdoc
    /// authentication failed, or was not checked unless a device authentication check passed.
    public var outcome: Outcome {
        // One pass, building no check: a report holds a check per element.
        var issuerFailed = false
        var issuerCertificate = false
        var issuerSignature = false
        var deviceFailed = false
        var deviceAuthenticated = false
        checks.forEachOutcome { kind, outcome in
            let passed = outcome.isPassed
            switch kind.mechanism {
            case .issuerDataAuthentication:
                guard passed else {
                    issuerFailed = true
                    return false
                }
                issuerCertificate = issuerCertificate || kind == .issuerCertificate
                issuerSignature = issuerSignature || kind == .issuerSignature
            case .mdocAuthentication:
                if case .failed = outcome { deviceFailed = true }
                deviceAuthenticated = deviceAuthenticated || (kind == .deviceAuthentication && passed)
            case .readerAuthentication:
                break
            }
            return true
        }
        if issuerFailed || !issuerCertificate || !issuerSignature { return .issuerAuthenticationFailed }
        if deviceFailed { return .deviceAuthenticationFailed }
        if !deviceAuthenticated { return .deviceAuthenticationNotChecked }
        return .verified
    }

    /// The checks that failed.
    public var failures: [VerificationCheck] { checks.filter(\.failed) }
}
