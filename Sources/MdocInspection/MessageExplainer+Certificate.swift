import MdocCBOR
import MdocCrypto
import MdocModel
import MdocText

extension MessageExplainer {
    /// A certificate from its DER bytes, or the reason they are not one.
    static func certificate(der: [UInt8], label: TerminalText, role: CertificateBuilder.Profile?, issuer: Certificate?) -> Explanation {
        do {
            let parsed = try Certificate(derEncoded: der)
            return Explanation(label, "X.509 certificate, \(der.count) bytes", children: certificate(parsed, role: role, issuer: issuer))
        } catch {
            return Explanation(label, "not a certificate this toolkit reads: \(error)", children: [Explanation.bytes("DER", der)])
        }
    }

    /// A certificate field by field (RFC 5280 section 4.1), its extensions named, and how it
    /// meets the ISO/IEC 18013-5 Annex B profile of `role` (or, when the place does not say,
    /// of the roles its extensions suggest), checked by ``Certificate/profileConformance(as:issuer:)``.
    static func certificate(_ certificate: Certificate, role: CertificateBuilder.Profile?, issuer: Certificate?) -> [Explanation] {
        var lines = [
            Explanation("Version", "\(certificate.version)"),
            Explanation("Serial number", "\(certificate.serialNumber)"),
            Explanation("Signature algorithm", "\(certificate.signatureAlgorithm.name) (\(certificate.signatureAlgorithm.oid))"),
            Explanation("Issuer", "\(certificate.issuer)"),
            Explanation("Validity", children: [
                Explanation("Not before", "\(TDate(certificate.notValidBefore).text)"),
                Explanation("Not after", "\(TDate(certificate.notValidAfter).text)"),
            ]),
            Explanation("Subject", "\(certificate.subject)"),
            publicKey(certificate.publicKey),
            Explanation("Self-signed", yesNo(certificate.isSelfSigned)),
            Explanation("Extensions", "\(certificate.extensions.count)", children: certificate.extensions.map { self.extensionLine($0, of: certificate) }),
        ]
        let candidates = roles(of: certificate, expected: role)
        for candidate in candidates {
            lines.append(profileFit(certificate, as: candidate, issuer: issuer, placeKnown: role != nil))
        }
        if candidates.isEmpty {
            lines.append(Explanation(
                "Annex B profile", "mDL JWS signer (extendedKeyUsage 1.0.18013.5.1.3), a profile this toolkit does not check"))
        }
        lines.append(Explanation.bytes("SHA-256 fingerprint", DigestAlgorithm.sha256.hash(certificate.derRepresentation)))
        return lines
    }

    /// The subject public key: its algorithm and curve, and the point.
    static func publicKey(_ key: PublicKey) -> Explanation {
        if let coordinates = key.coordinates {
            return Explanation("Public key", "EC \(key.curve) (COSE crv \(key.curve.coseIdentifier))", children: [
                Explanation.bytes("x", coordinates.x), Explanation.bytes("y", coordinates.y),
            ])
        }
        return Explanation("Public key", "\(key.curve) (COSE crv \(key.curve.coseIdentifier))", children: [
            Explanation.bytes("Key", key.rawRepresentation),
        ])
    }

    /// One extension: its name, OID, criticality and value, the profile extensions read by the
    /// toolkit and the rest by OpenSSL.
    static func extensionLine(_ item: Certificate.Extension, of certificate: Certificate) -> Explanation {
        let label: TerminalText = "\(item.name ?? "unknown extension") (\(item.oid))" + (item.isCritical ? ", critical" : "")
        switch item.oid {
        case "2.5.29.15":
            return Explanation(label, "\(certificate.keyUsage.map { $0.description } ?? item.text ?? "")")
        case "2.5.29.37":
            let purposes = certificate.extendedKeyUsage ?? []
            return Explanation(label, "\(purposes.count) purpose\(purposes.count == 1 ? "" : "s")", children: purposes.map { oid in
                Explanation("\(oid)", "\(ObjectIdentifierNames.name(of: oid) ?? "not a purpose this toolkit knows")")
            })
        case "2.5.29.19":
            return Explanation(label, "\(certificate.basicConstraints.map { $0.description } ?? item.text ?? "")")
        case "2.5.29.14":
            return certificate.subjectKeyIdentifier.map { Explanation.bytes(label, $0) } ?? Explanation(label, "\(item.text ?? "")")
        case "2.5.29.35":
            guard let identifier = certificate.authorityKeyIdentifier else { return Explanation(label, "\(item.text ?? "no keyIdentifier")") }
            return Explanation.bytes(label + ", keyIdentifier", identifier)
        default:
            if let text = item.text { return Explanation(label, "\(text)") }
            return Explanation.bytes(label, item.value)
        }
    }

    /// The Annex B roles to check a certificate against: `expected` when its place says it;
    /// otherwise a root for a CA or a self-issued certificate, and for an end-entity
    /// certificate the roles its extended key usage names (both when it names neither; none
    /// for a server retrieval JWS signer, whose profile the toolkit does not check).
    static func roles(of certificate: Certificate, expected: CertificateBuilder.Profile?) -> [CertificateBuilder.Profile] {
        if let expected { return [expected] }
        if certificate.basicConstraints?.isCA == true || certificate.isSelfIssued { return [.iaca] }
        let purposes = certificate.extendedKeyUsage ?? []
        if purposes == [CertificateProfile.jwsSignerOID] { return [] }
        let leaves = [CertificateBuilder.Profile.documentSigner, .readerAuthentication].filter { role in
            purposes.contains(where: role.chainProfile.knownExtendedKeyUsageOIDs.contains)
        }
        return leaves.isEmpty ? [.documentSigner, .readerAuthentication] : leaves
    }

    /// Whether the certificate fits `role`, every check with its outcome.
    static func profileFit(
        _ certificate: Certificate, as role: CertificateBuilder.Profile, issuer: Certificate?, placeKnown: Bool
    ) -> Explanation {
        let result = certificate.profileConformance(as: role, issuer: issuer)
        let name: TerminalText = switch role {
        case .iaca: placeKnown ? "IACA" : "IACA or mdoc reader root"
        case .documentSigner: "document signer"
        case .readerRoot: "mdoc reader root"
        case .readerAuthentication: "mdoc reader authentication"
        }
        let verdict: TerminalText = result.failures.isEmpty ? "fits" : "does NOT fit"
        let failed = result.failures.map { Explanation("FAIL \($0.check)", "\($0.reason)") }
        let passed = result.passedChecks.map { Explanation("ok   \($0.check)", "\($0.detail)") }
        var notes: [Explanation] = []
        if role.isRoot, !certificate.isSelfSigned {
            notes.append(Explanation("Note", "a root is a trust anchor only when it is self-signed, which this one is not"))
        }
        return Explanation("Annex B profile, " + name, verdict, children: failed + passed + notes)
    }
}
