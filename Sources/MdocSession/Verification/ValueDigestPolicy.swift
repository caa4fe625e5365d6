import MdocCBOR
import MdocCrypto
import MdocModel

/// The value digests (ISO/IEC 18013-5 9.1.2.5, 9.3.1 step 3): the MSO names SHA-256, SHA-384 or
/// SHA-512 and holds digests of that length, and every returned IssuerSignedItemBytes, exactly
/// as received, hashes to the digest the MSO holds for its digestID in its name space, with a
/// digestID used once and a random salt of at least 16 bytes.
///
/// It records one ``VerificationCheck/Kind/digestAlgorithm`` check and one
/// ``VerificationCheck/Kind/valueDigest`` check per returned element, and marks the elements
/// whose digest matched (``DocumentVerification/matchedDigests``): the only ones that issuer data
/// authentication can vouch for.
public struct ValueDigestPolicy: DocumentVerifierPolicy {
    /// The policy.
    public init() {}

    /// Records the checks, when the MSO decodes.
    public func evaluate(_ verification: inout DocumentVerification) {
        guard let decoded = verification.decodedMobileSecurityObject() else { return }
        let mso = decoded.value
        guard let algorithm = DigestAlgorithm(rawValue: mso.digestAlgorithm) else {
            verification.record(VerificationCheck(
                .digestAlgorithm, subject: .mobileSecurityObject,
                outcome: .failed(.unsupportedDigestAlgorithm, "digest algorithm \"\(mso.digestAlgorithm)\" is not one of SHA-256, SHA-384, SHA-512")))
            return
        }
        // Digests of another length were made with another algorithm than the MSO names: no
        // element can match, and the MSO itself is inconsistent, so say that once.
        for (nameSpace, digests) in mso.valueDigests {
            if let (digestID, digest) = digests.first(where: { $0.value.count != algorithm.digestByteCount }) {
                verification.record(VerificationCheck(
                    .digestAlgorithm, subject: .mobileSecurityObject,
                    outcome: .failed(
                        .digestAlgorithmMismatch,
                        "the MSO names \(algorithm.rawValue), whose digests are \(algorithm.digestByteCount) bytes, but the digest of digestID \(digestID) in \"\(nameSpace)\" is \(digest.count) bytes")))
                return
            }
        }
        verification.record(VerificationCheck(.digestAlgorithm, subject: .mobileSecurityObject, outcome: .passed, detail: algorithm.rawValue))
        var results: [String: [Bool]] = [:]
        // One digest context for every element of the document (DigestContext).
        let context = DigestContext(algorithm)
        for (nameSpace, items) in verification.document.issuerSigned.nameSpaces ?? OrderedMap() {
            let digests = mso.valueDigests[nameSpace]
            let positions = digests.map { DigestIDPositions($0, returnedCount: items.count) }
            // A digestID used twice is found by the MSO entry it names, or, for one the MSO does
            // not hold, among those: a flag per MSO entry instead of a set of every digestID.
            var returned = [Bool](repeating: false, count: digests?.count ?? 0)
            var returnedNotInMSO = Set<UInt64>()
            var matched: [Bool] = []
            matched.reserveCapacity(items.count)
            var outcomes: [VerificationCheck.Outcome] = []
            outcomes.reserveCapacity(items.count)
            // By position, reading fields in place: a copy of each item would retain every
            // reference it holds, and a response may hold thousands.
            for index in items.indices {
                let digestID = items[index].value.digestID
                let position = positions?.position(of: digestID)
                let duplicate: Bool
                if let position {
                    duplicate = returned[position]
                    returned[position] = true
                } else {
                    duplicate = !returnedNotInMSO.insert(digestID).inserted
                }
                let outcome: VerificationCheck.Outcome
                if duplicate {
                    outcome = .failed(.duplicateDigestID, "digestID \(digestID) is used by more than one returned element")
                } else if items[index].value.random.count < IssuerSignedItem.minimumRandomByteCount {
                    outcome = .failed(
                        .randomTooShort,
                        "the random salt is \(items[index].value.random.count) bytes; 9.1.2.5 requires at least \(IssuerSignedItem.minimumRandomByteCount)")
                } else if let digests {
                    if let position {
                        let expected = digests.elements[position].value
                        // The digest covers IssuerSignedItemBytes (9.1.2.5), #6.24(bstr),
                        // exactly as received, heads included, where it lies in the response.
                        let matches = items[index].taggedBytes.withUnsafeBytes { bytes in expected.withUnsafeBytes { context.digest(of: bytes, equals: $0) } }
                        outcome = matches
                            ? .passed
                            : .failed(.digestMismatch, "the \(algorithm.rawValue) digest of the element does not match digestID \(digestID) in the MSO")
                    } else {
                        outcome = .failed(.digestIDNotInMSO, "digestID \(digestID) is not in the MSO for \"\(nameSpace)\"")
                    }
                } else {
                    outcome = .failed(.nameSpaceNotInMSO, "the MSO has no value digests for name space \"\(nameSpace)\"")
                }
                outcomes.append(outcome)
                if case .passed = outcome { matched.append(true) } else { matched.append(false) }
            }
            verification.recordValueDigests(nameSpace: nameSpace, items: items, outcomes: outcomes)
            results[nameSpace] = matched
        }
        verification.matchedDigests = results
    }
}
