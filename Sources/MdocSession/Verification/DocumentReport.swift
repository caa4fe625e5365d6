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
        case signature = "DeviceSignature"
        case mac = "DeviceMac"
    }

    /// The MSO validity information as received (tdate text) and interpreted.
    public struct Validity: Sendable, Hashable {
        public var signed: Date
        public var validFrom: Date
        public var validUntil: Date
        public var expectedUpdate: Date?

        public init(signed: Date, validFrom: Date, validUntil: Date, expectedUpdate: Date?) {
            self.signed = signed
            self.validFrom = validFrom
            self.validUntil = validUntil
            self.expectedUpdate = expectedUpdate
        }
    }

    /// The position of the document in `documents`.
    public var index: Int
    public var docType: String
    public var checks: [VerificationCheck]
    public var elements: [DisclosedElement]
    /// The subject of the document signer certificate, when the x5chain held one.
    public var documentSigner: String?
    /// The trust anchor the chain ended at, when it validated.
    public var trustAnchor: String?
    public var validity: Validity?
    public var deviceAuthenticationMethod: DeviceAuthenticationMethod?

    public init(index: Int, docType: String) {
        self.index = index
        self.docType = docType
        self.checks = []
        self.elements = []
    }

    public var outcome: Outcome {
        let issuerChecks = checks.filter(\.isIssuerCheck)
        if issuerChecks.contains(where: { !$0.passed }) || !issuerChecks.contains(where: { $0.kind == .issuerSignature }) {
            return .issuerAuthenticationFailed
        }
        let deviceChecks = checks.filter { $0.kind == .deviceAuthentication || $0.kind == .keyAuthorization }
        if deviceChecks.contains(where: \.failed) {
            return .deviceAuthenticationFailed
        }
        if !deviceChecks.contains(where: { $0.kind == .deviceAuthentication && $0.passed }) {
            return .deviceAuthenticationNotChecked
        }
        return .verified
    }

    /// The checks that failed.
    public var failures: [VerificationCheck] { checks.filter(\.failed) }
}
