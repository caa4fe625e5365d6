import MdocCBOR
import MdocCrypto
import MdocModel

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One Document of a DeviceResponse while a ``DeviceResponseVerifier`` verifies it (ISO/IEC
/// 18013-5 9.3.1 and 9.1.3): what was received, what the policies run so far established, and
/// every check they recorded.
///
/// Each ``DocumentVerifierPolicy`` reads it and records its checks in turn; the verifier then
/// makes the ``DocumentReport``. Checks are only ever added, so no policy takes back another's
/// failure. Whatever the policies, the verifier decides the elements' statuses itself and fails
/// closed: an element is issuer-authenticated only when a policy recorded its digest as matched
/// (``matchedDigests``) and every check of issuer data authentication passed, a passed
/// ``VerificationCheck/Kind/issuerCertificate`` and ``VerificationCheck/Kind/issuerSignature``
/// among them; a document is verified only when a ``VerificationCheck/Kind/deviceAuthentication``
/// check passed as well.
public struct DocumentVerification {
    /// The document as received.
    public let document: Document
    /// Its position in the response's `documents`.
    public let index: Int
    /// The verification time: every validity is checked at it (docs/architecture.md rule 5).
    public let time: Date
    /// The transcript the response is bound to, when the verifier was given one.
    public let sessionTranscript: SessionTranscriptBinding?
    /// The reader's ephemeral private key (EReaderKey), when the verifier was given one.
    public let readerKey: PrivateKey?

    private let validator: CertificateChainValidator
    private let certificates: CertificateCache
    private var report: DocumentReport
    private var mso = MSOState.undecoded

    /// Whether the MSO has been decoded, and how that went.
    private enum MSOState {
        case undecoded
        case decoded(DecodedMobileSecurityObject)
        case malformed(CBORError)
    }

    /// The MSO once decoded, held by reference: the policies of this module read the fields they
    /// need there instead of each copying the whole structure out.
    final class DecodedMobileSecurityObject {
        /// The MSO.
        let value: MobileSecurityObject

        init(_ value: MobileSecurityObject) {
            self.value = value
        }
    }

    /// Per name space, whether each returned IssuerSignedItem's digest matched the MSO's, by
    /// position in the name space; an item not listed as matched is not issuer-authenticated.
    /// ``ValueDigestPolicy`` sets it.
    public var matchedDigests: [String: [Bool]] = [:]
    /// Whether the MSO KeyAuthorizations allow the device key to sign every device-signed
    /// element (9.1.2.4); device-signed elements are authenticated only when it is `true`.
    /// ``KeyAuthorizationPolicy`` sets it.
    public var deviceSignedElementsAuthorized = false

    init(
        document: Document, index: Int, responseStatus: DeviceResponse.Status, time: Date, sessionTranscript: SessionTranscriptBinding?,
        readerKey: PrivateKey?, validator: CertificateChainValidator, certificates: CertificateCache
    ) {
        self.document = document
        self.index = index
        self.time = time
        self.sessionTranscript = sessionTranscript
        self.readerKey = readerKey
        self.validator = validator
        self.certificates = certificates
        report = DocumentReport(index: index, docType: document.docType)
        for (nameSpace, items) in document.errors?.nameSpaces ?? OrderedMap() {
            for (identifier, code) in items {
                report.elementErrors.append(DocumentReport.ElementError(nameSpace: nameSpace, identifier: identifier, code: code.rawValue))
            }
        }
        // 8.3.2.1.2.3: a response with an error status carries no data to rely on.
        if responseStatus != .ok {
            record(VerificationCheck(
                .structure, subject: .responseStatus,
                outcome: .failed(.errorStatus, "the response status is \(responseStatus); documents of a failed response are not accepted")))
        }
    }

    // MARK: Checks

    /// Every check recorded so far, in order.
    public var checks: ReportList<VerificationCheck> { report.checks }

    /// Records `check` after those recorded so far.
    public mutating func record(_ check: VerificationCheck) {
        report.checks.append(check)
    }

    /// Records the ``VerificationCheck/Kind/valueDigest`` checks of `nameSpace`'s returned items
    /// after those recorded so far, one per item of the document's IssuerSigned, with the
    /// outcome at its position in `outcomes`.
    mutating func recordValueDigests(nameSpace: String, items: [EmbeddedCBOR<IssuerSignedItem>], outcomes: [VerificationCheck.Outcome]) {
        report.checks.append(run: ValueDigestChecks(nameSpace: nameSpace, items: items, outcomes: outcomes))
    }

    // MARK: The document signer (9.3.3)

    /// The trust anchors (IACA certificates) of the verifier.
    public var trustAnchors: [Certificate] { validator.trustAnchors }
    /// The certificates of the issuerAuth `x5chain`, leaf first, as far as they parse, once
    /// ``validateDocumentSignerChain(under:)`` ran.
    public var certificateChain: [Certificate] { report.certificateChain }
    /// The document signer certificate: the first of the `x5chain`, when it parsed, whether or
    /// not its chain validated.
    public private(set) var documentSigner: Certificate?
    /// Every check of the document signer chain's validation, when the chain parsed and was
    /// validated.
    public var chainValidation: CertificateValidationResult? { report.chainValidation }
    /// The trust anchor the document signer chain validated to, or `nil`.
    public var trustAnchor: Certificate? { report.chainValidation?.validatedPath?.last }

    /// Parses the issuerAuth `x5chain` and validates it to ``trustAnchors`` at ``time`` under
    /// the Annex B document signer profile, the document signer carrying an extended key usage
    /// `rule` accepts; records the outcome as ``VerificationCheck/Kind/issuerCertificate``
    /// checks (one per failure, or one that passed) and sets ``documentSigner``,
    /// ``certificateChain``, ``chainValidation`` and ``trustAnchor``.
    public mutating func validateDocumentSignerChain(under rule: DocumentSignerRule) {
        report.documentSignerRule = rule
        let chain = X5ChainVerification(
            document.issuerSigned.issuerAuth, name: .issuerAuth, kind: .issuerCertificate, profile: .documentSigner, rule: rule,
            validator: validator, certificates: certificates, time: time)
        report.checks += chain.checks
        report.certificateChain = chain.chain
        report.chainValidation = chain.validation
        report.documentSigner = chain.leaf?.subject
        report.trustAnchor = chain.trustAnchor?.subject
        documentSigner = chain.leaf
    }

    // MARK: The MSO (9.1.2.4)

    /// The MobileSecurityObject of the IssuerAuth payload, decoded on first use; `nil` when it
    /// does not decode, and then the first call records the failed
    /// ``VerificationCheck/Kind/structure`` check. The policies that need the MSO call it and
    /// make none of their checks without it.
    public mutating func mobileSecurityObject() -> MobileSecurityObject? {
        decodedMobileSecurityObject()?.value
    }

    /// The MSO as ``mobileSecurityObject()`` gives it, by reference.
    mutating func decodedMobileSecurityObject() -> DecodedMobileSecurityObject? {
        switch mso {
        case .decoded(let mso):
            return mso
        case .malformed:
            return nil
        case .undecoded:
            do {
                let decoded = try document.issuerSigned.mobileSecurityObjectBytes().value
                let validity = decoded.validityInfo
                report.validity = DocumentReport.Validity(
                    signed: validity.signed.date, validFrom: validity.validFrom.date, validUntil: validity.validUntil.date,
                    expectedUpdate: validity.expectedUpdate?.date)
                let held = DecodedMobileSecurityObject(decoded)
                mso = .decoded(held)
                return held
            } catch {
                // Located in the response only now that it is reported.
                let located = error.prefixed(by: CBORPath(components: [.key("documents"), .index(index), .key("issuerSigned")]))
                mso = .malformed(located)
                record(VerificationCheck(.structure, subject: .structure("MobileSecurityObject"), outcome: .failed(.malformedStructure, "\(located)")))
                return nil
            }
        }
    }

    /// The document's status, as a ``RevocationPolicy`` found it.
    public var documentStatus: DocumentStatus? {
        get { report.status }
        set { report.status = newValue }
    }

    /// How the mdoc authenticated, as its DeviceSigned says (9.1.3).
    public var deviceAuthenticationMethod: DocumentReport.DeviceAuthenticationMethod? {
        get { report.deviceAuthenticationMethod }
        set { report.deviceAuthenticationMethod = newValue }
    }

    // MARK: The report

    /// The report of the document: the checks recorded, and every returned element with the
    /// status the checks give it (9.3.1, 9.1.3). An MSO no policy asked for is decoded here, so
    /// that one that does not decode is always reported.
    mutating func finish() -> DocumentReport {
        let msoDecoded = decodedMobileSecurityObject() != nil
        // One pass over the checks, building none: a report holds a check per element.
        var issuerChecksPassed = true
        var issuerCertificate = false
        var issuerSignature = false
        var deviceAuthenticated = false
        report.checks.forEachOutcome { kind, outcome in
            let passed = outcome.isPassed
            switch kind.mechanism {
            case .issuerDataAuthentication:
                // An element is authenticated only when the MSO that vouches for it is: its
                // digest matching an untrusted or invalid MSO proves nothing. The digests
                // themselves count per element.
                guard kind != .valueDigest else { return true }
                issuerChecksPassed = issuerChecksPassed && passed
                issuerCertificate = issuerCertificate || (kind == .issuerCertificate && passed)
                issuerSignature = issuerSignature || (kind == .issuerSignature && passed)
            case .mdocAuthentication:
                deviceAuthenticated = deviceAuthenticated || (kind == .deviceAuthentication && passed)
            case .readerAuthentication:
                break
            }
            return true
        }
        let msoTrusted = issuerChecksPassed && issuerCertificate && issuerSignature
        // Issuer data alone can be copied to another device; device authentication is the
        // anti-cloning check (9.1.3), so an element is verified only when its document passed both.
        let documentVerified = report.outcome == .verified
        let matched = msoTrusted ? matchedDigests : [:]
        report.elements = []
        for (nameSpace, items) in document.issuerSigned.nameSpaces ?? OrderedMap() {
            report.elements.append(run: IssuerSignedElements(
                nameSpace: nameSpace, items: items, issuerAuthenticated: matched[nameSpace] ?? [], documentVerified: documentVerified))
        }
        if msoDecoded {
            let authenticated = msoTrusted && deviceAuthenticated && deviceSignedElementsAuthorized
            for (nameSpace, values) in document.deviceSigned.nameSpaces.value.nameSpaces {
                for (identifier, value) in values {
                    report.elements.append(DisclosedElement(
                        nameSpace: nameSpace, identifier: identifier, value: value, source: .deviceSigned, digestID: nil,
                        issuerAuthenticated: authenticated, verified: documentVerified && authenticated))
                }
            }
        }
        return report
    }
}
