import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The checks of one Document (ISO/IEC 18013-5 9.3.1 and 9.1.3), in the order the standard
/// lists them. Each step records its outcome; a failed step that later steps depend on makes
/// them record why they were not made, so the report always names the first cause.
struct DocumentVerification {
    let document: Document
    let index: Int
    let validator: CertificateChainValidator
    let documentSignerPolicy: DocumentSignerPolicy
    let certificates: CertificateCache
    let sessionTranscript: SessionTranscriptBinding?
    let readerKey: PrivateKey?
    let time: Date

    private var path: CBORPath { CBORPath(components: [.key("documents"), .index(index)]) }

    func run() -> DocumentReport {
        var report = DocumentReport(index: index, docType: document.docType)
        for (nameSpace, items) in document.errors?.nameSpaces ?? OrderedMap() {
            for (identifier, code) in items {
                report.elementErrors.append(DocumentReport.ElementError(nameSpace: nameSpace, identifier: identifier, code: code.rawValue))
            }
        }
        let issuerAuth = document.issuerSigned.issuerAuth
        let documentSigner = verifyIssuerCertificate(issuerAuth, into: &report)
        if let documentSigner {
            let valid = issuerAuth.isValidSignature(publicKey: documentSigner.publicKey)
            let algorithm = issuerAuth.algorithm.map { "\($0)" } ?? "no algorithm"
            report.checks.append(VerificationCheck(
                .issuerSignature, subject: "issuerAuth",
                outcome: valid ? .passed : .failed(.invalidSignature, "the IssuerAuth signature (\(algorithm)) does not verify with the key of \"\(documentSigner.subject)\""),
                detail: "\(algorithm) by \"\(documentSigner.subject)\""))
        } else {
            report.checks.append(VerificationCheck(
                .issuerSignature, subject: "issuerAuth", outcome: .skipped("no usable document signer certificate")))
        }

        let mso: MobileSecurityObject
        do {
            mso = try document.issuerSigned.mobileSecurityObjectBytes(at: path.appending(key: "issuerSigned")).value
        } catch {
            report.checks.append(VerificationCheck(.structure, subject: "MobileSecurityObject", outcome: .failed(.malformedStructure, "\(error)")))
            report.elements = issuerElements(digestsVerified: [:])
            return report
        }
        report.validity = DocumentReport.Validity(
            signed: mso.validityInfo.signed.date, validFrom: mso.validityInfo.validFrom.date,
            validUntil: mso.validityInfo.validUntil.date, expectedUpdate: mso.validityInfo.expectedUpdate?.date)

        report.checks.append(checkDocType(mso))
        report.checks.append(checkValidity(mso, documentSigner: documentSigner))
        let digestResults = checkDigests(mso, into: &report)
        // An element is authenticated only when the MSO that vouches for it is: its digest
        // matching an untrusted or invalid MSO proves nothing.
        let msoTrusted = Self.isMSOTrusted(report.checks)
        report.elements = issuerElements(digestsVerified: msoTrusted ? digestResults : [:])

        let deviceAuthenticated = checkDeviceAuthentication(mso, into: &report)
        let authorized = checkKeyAuthorizations(mso, into: &report)
        report.elements += deviceElements(authenticated: msoTrusted && deviceAuthenticated && authorized)
        // Issuer data alone can be copied to another device; device authentication is the
        // anti-cloning check (9.1.3), so an element is verified only when its document passed both.
        let documentVerified = report.outcome == .verified
        for index in report.elements.indices {
            report.elements[index].verified = documentVerified && report.elements[index].issuerAuthenticated
        }
        return report
    }

    /// `true` when every issuer check other than the per-element digests passed, the IssuerAuth
    /// signature among them: the MSO itself can be relied on.
    static func isMSOTrusted(_ checks: [VerificationCheck]) -> Bool {
        let msoChecks = checks.filter { $0.isIssuerCheck && $0.kind != .valueDigest }
        return msoChecks.allSatisfy(\.passed) && msoChecks.contains { $0.kind == .issuerSignature }
    }

    // MARK: Issuer data authentication (9.3.1)

    /// Step 1: the x5chain validates to a trust anchor under the document-signer profile, its
    /// extended key usage under the rule of the document's doc type. (The MSO's doc type must
    /// equal the document's, step 4, so the rule is the signed doc type's whenever it matters.)
    private func verifyIssuerCertificate(_ issuerAuth: COSESign1, into report: inout DocumentReport) -> Certificate? {
        let rule = documentSignerPolicy.rule(for: document.docType)
        report.documentSignerRule = rule
        let chain = X5ChainVerification(
            issuerAuth, name: "issuerAuth", kind: .issuerCertificate, profile: .documentSigner, rule: rule,
            validator: validator, certificates: certificates, time: time)
        report.checks += chain.checks
        report.documentSigner = chain.leaf?.subject
        report.trustAnchor = chain.trustAnchor
        return chain.leaf
    }

    /// Step 4: the MSO docType equals the document's docType.
    private func checkDocType(_ mso: MobileSecurityObject) -> VerificationCheck {
        mso.docType == document.docType
            ? VerificationCheck(.docType, subject: document.docType, outcome: .passed)
            : VerificationCheck(
                .docType, subject: document.docType,
                outcome: .failed(.docTypeMismatch, "the MSO is for docType \"\(mso.docType)\", the document claims \"\(document.docType)\""))
    }

    /// Step 5: validFrom <= time <= validUntil, and the MSO was signed while the document signer
    /// certificate was valid.
    private func checkValidity(_ mso: MobileSecurityObject, documentSigner: Certificate?) -> VerificationCheck {
        let info = mso.validityInfo
        let window = "valid from \(info.validFrom) until \(info.validUntil)"
        let at = TDate(time).text
        if time < info.validFrom.date {
            return VerificationCheck(.validity, subject: "MSO", outcome: .failed(.notYetValid, "the MSO is not yet valid at \(at): \(window)"))
        }
        if time > info.validUntil.date {
            return VerificationCheck(.validity, subject: "MSO", outcome: .failed(.expired, "the MSO expired: \(window), checked at \(at)"))
        }
        if let documentSigner, info.signed.date < documentSigner.notValidBefore || info.signed.date > documentSigner.notValidAfter {
            return VerificationCheck(
                .validity, subject: "MSO",
                outcome: .failed(.signedOutsideCertificateValidity, "the MSO was signed at \(info.signed), outside the validity of \"\(documentSigner.subject)\""))
        }
        return VerificationCheck(.validity, subject: "MSO", outcome: .passed, detail: "\(window), checked at \(at)")
    }

    /// Step 3: each returned IssuerSignedItemBytes hashes to its value digest. Returns, per name
    /// space and item position, whether the digest matched.
    private func checkDigests(_ mso: MobileSecurityObject, into report: inout DocumentReport) -> [String: [Bool]] {
        guard let algorithm = DigestAlgorithm(rawValue: mso.digestAlgorithm) else {
            report.checks.append(VerificationCheck(
                .digestAlgorithm, subject: "MSO",
                outcome: .failed(.unsupportedDigestAlgorithm, "digest algorithm \"\(mso.digestAlgorithm)\" is not one of SHA-256, SHA-384, SHA-512")))
            return [:]
        }
        // Digests of another length were made with another algorithm than the MSO names: no
        // element can match, and the MSO itself is inconsistent, so say that once.
        for (nameSpace, digests) in mso.valueDigests {
            if let (digestID, digest) = digests.first(where: { $0.value.count != algorithm.digestByteCount }) {
                report.checks.append(VerificationCheck(
                    .digestAlgorithm, subject: "MSO",
                    outcome: .failed(
                        .digestAlgorithmMismatch,
                        "the MSO names \(algorithm.rawValue), whose digests are \(algorithm.digestByteCount) bytes, but the digest of digestID \(digestID) in \"\(nameSpace)\" is \(digest.count) bytes")))
                return [:]
            }
        }
        report.checks.append(VerificationCheck(.digestAlgorithm, subject: "MSO", outcome: .passed, detail: algorithm.rawValue))
        var results: [String: [Bool]] = [:]
        for (nameSpace, items) in document.issuerSigned.nameSpaces ?? OrderedMap() {
            let digests = mso.valueDigests[nameSpace]
            var seen = Set<UInt64>()
            var matched: [Bool] = []
            for item in items {
                let digestID = item.value.digestID
                let outcome: VerificationCheck.Outcome
                if !seen.insert(digestID).inserted {
                    outcome = .failed(.duplicateDigestID, "digestID \(digestID) is used by more than one returned element")
                } else if item.value.random.count < IssuerSignedItem.minimumRandomByteCount {
                    outcome = .failed(
                        .randomTooShort,
                        "the random salt is \(item.value.random.count) bytes; 9.1.2.5 requires at least \(IssuerSignedItem.minimumRandomByteCount)")
                } else if let digests {
                    if let expected = digests[digestID] {
                        // The digest covers IssuerSignedItemBytes (9.1.2.5), #6.24(bstr),
                        // exactly as received, heads included, where it lies in the response.
                        let actual = item.taggedBytes.withUnsafeBytes { algorithm.hash($0) }
                        outcome = actual == expected
                            ? .passed
                            : .failed(.digestMismatch, "the \(algorithm.rawValue) digest of the element does not match digestID \(digestID) in the MSO")
                    } else {
                        outcome = .failed(.digestIDNotInMSO, "digestID \(digestID) is not in the MSO for \"\(nameSpace)\"")
                    }
                } else {
                    outcome = .failed(.nameSpaceNotInMSO, "the MSO has no value digests for name space \"\(nameSpace)\"")
                }
                report.checks.append(VerificationCheck(
                    .valueDigest, subject: .element(nameSpace: nameSpace, identifier: item.value.elementIdentifier), outcome: outcome,
                    detail: .digestID(digestID)))
                if case .passed = outcome { matched.append(true) } else { matched.append(false) }
            }
            results[nameSpace] = matched
        }
        return results
    }

    private func issuerElements(digestsVerified: [String: [Bool]]) -> [DisclosedElement] {
        var elements: [DisclosedElement] = []
        for (nameSpace, items) in document.issuerSigned.nameSpaces ?? OrderedMap() {
            let verified = digestsVerified[nameSpace] ?? []
            for (position, item) in items.enumerated() {
                elements.append(DisclosedElement(
                    nameSpace: nameSpace, identifier: item.value.elementIdentifier, value: item.value.elementValue,
                    source: .issuerSigned, digestID: item.value.digestID,
                    issuerAuthenticated: position < verified.count && verified[position], verified: false))
            }
        }
        return elements
    }

    // MARK: mdoc authentication (9.1.3)

    /// DeviceSignature with the MSO deviceKey, or DeviceMac with EMacKey, over
    /// DeviceAuthenticationBytes. Returns whether it passed.
    private func checkDeviceAuthentication(_ mso: MobileSecurityObject, into report: inout DocumentReport) -> Bool {
        let deviceSigned = document.deviceSigned
        let subject = "deviceAuth"
        switch deviceSigned.deviceAuth {
        case .deviceSignature: report.deviceAuthenticationMethod = .signature
        case .deviceMac: report.deviceAuthenticationMethod = .mac
        }
        guard let sessionTranscript else {
            report.checks.append(VerificationCheck(
                .deviceAuthentication, subject: subject, outcome: .skipped("no session transcript was given")))
            return false
        }
        let deviceKey: PublicKey
        do {
            deviceKey = try mso.deviceKeyInfo.deviceKey.publicKey()
        } catch {
            report.checks.append(VerificationCheck(
                .deviceAuthentication, subject: subject, outcome: .failed(.unusableDeviceKey, "the MSO deviceKey is unusable: \(error)")))
            return false
        }
        let payload = sessionTranscript.deviceAuthenticationBytes(
            docType: document.docType, deviceNameSpacesBytes: deviceSigned.nameSpaces)
        let check: VerificationCheck
        switch deviceSigned.deviceAuth {
        case .deviceSignature(let signature):
            if let mismatch = Self.attachedPayloadMismatch(signature.payload, expected: payload, in: "DeviceSignature") {
                check = mismatch
                break
            }
            let algorithm = signature.algorithm.map { "\($0)" } ?? "no algorithm"
            check = signature.isValidSignature(publicKey: deviceKey, detachedPayload: signature.payload == nil ? payload : nil)
                ? VerificationCheck(
                    .deviceAuthentication, subject: subject, outcome: .passed,
                    detail: "DeviceSignature \(algorithm) by the MSO deviceKey" + Self.attachedPayloadNote(signature.payload))
                : VerificationCheck(
                    .deviceAuthentication, subject: subject,
                    outcome: .failed(.invalidSignature, "the DeviceSignature (\(algorithm)) does not verify with the MSO deviceKey over this session's DeviceAuthenticationBytes"))
        case .deviceMac(let mac):
            if let mismatch = Self.attachedPayloadMismatch(mac.payload, expected: payload, in: "DeviceMac") {
                check = mismatch
                break
            }
            guard let readerKey else {
                report.checks.append(VerificationCheck(
                    .deviceAuthentication, subject: subject,
                    outcome: .skipped("DeviceMac needs the reader's ephemeral private key (EReaderKey)")))
                return false
            }
            let eMacKey: SymmetricKey
            do {
                eMacKey = try EMacKey.derive(
                    privateKey: readerKey, peerPublicKey: deviceKey, sessionTranscriptBytes: sessionTranscript.taggedBytes)
            } catch {
                report.checks.append(VerificationCheck(
                    .deviceAuthentication, subject: subject,
                    outcome: .failed(.macKeyDerivationFailed, "EMacKey cannot be derived from the reader key and the MSO deviceKey: \(error)")))
                return false
            }
            check = mac.isValidTag(key: eMacKey, detachedPayload: mac.payload == nil ? payload : nil)
                ? VerificationCheck(
                    .deviceAuthentication, subject: subject, outcome: .passed,
                    detail: "DeviceMac HMAC 256/256 with EMacKey" + Self.attachedPayloadNote(mac.payload))
                : VerificationCheck(
                    .deviceAuthentication, subject: subject,
                    outcome: .failed(.invalidMAC, "the DeviceMac does not verify: wrong reader key, another session's transcript, or altered data"))
        }
        report.checks.append(check)
        return check.passed
    }

    /// 9.1.3.5 and 9.1.3.6 send DeviceAuthenticationBytes detached: the COSE payload is null
    /// (RFC 9052 section 4.1) and the reader supplies the bytes it expects. Some mdocs attach
    /// them instead; an attached payload is verified as it stands only when it is
    /// byte-identical to the DeviceAuthenticationBytes of this session. Any other is the
    /// failure returned here, which names the payload, not the signature or MAC.
    private static func attachedPayloadMismatch(_ attached: [UInt8]?, expected: [UInt8], in name: String) -> VerificationCheck? {
        guard let attached, attached != expected else { return nil }
        let common = min(attached.count, expected.count)
        let difference = (0..<common).first { attached[$0] != expected[$0] } ?? common
        return VerificationCheck(
            .deviceAuthentication, subject: "deviceAuth",
            outcome: .failed(
                .payloadMismatch,
                "the \(name) carries an attached payload of \(attached.count) bytes that is not this session's DeviceAuthenticationBytes (\(expected.count) bytes, first difference at byte \(difference)); 9.1.3 sends the payload detached, as null"))
    }

    /// The note a passed check carries when the payload was attached (and so identical to the
    /// DeviceAuthenticationBytes expected).
    private static func attachedPayloadNote(_ attached: [UInt8]?) -> String {
        attached == nil ? "" : "; note: the payload is attached, not detached as 9.1.3 requires, and byte-identical to this session's DeviceAuthenticationBytes"
    }

    /// Device-signed elements must be authorised by KeyAuthorizations (9.1.2.4): a whole name
    /// space, or the element listed in dataElements.
    private func checkKeyAuthorizations(_ mso: MobileSecurityObject, into report: inout DocumentReport) -> Bool {
        let authorizations = mso.deviceKeyInfo.keyAuthorizations
        var allAuthorized = true
        for (nameSpace, elements) in document.deviceSigned.nameSpaces.value.nameSpaces {
            for (identifier, _) in elements {
                let element = "\(nameSpace)/\(identifier)"
                let authorized = authorizations?.nameSpaces?.contains(nameSpace) == true
                    || authorizations?.dataElements?[nameSpace]?.contains(identifier) == true
                report.checks.append(VerificationCheck(
                    .keyAuthorization, subject: element,
                    outcome: authorized ? .passed : .failed(.notAuthorized, "the MSO KeyAuthorizations do not allow the device key to sign \(element)")))
                allAuthorized = allAuthorized && authorized
            }
        }
        return allAuthorized
    }

    private func deviceElements(authenticated: Bool) -> [DisclosedElement] {
        var elements: [DisclosedElement] = []
        for (nameSpace, values) in document.deviceSigned.nameSpaces.value.nameSpaces {
            for (identifier, value) in values {
                elements.append(DisclosedElement(
                    nameSpace: nameSpace, identifier: identifier, value: value, source: .deviceSigned, digestID: nil,
                    issuerAuthenticated: authenticated, verified: false))
            }
        }
        return elements
    }
}
