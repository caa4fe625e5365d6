import ArgumentParser
import MdocCrypto
import MdocFiles
import MdocModel

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension CertificateBuilder.Deviation: ExpressibleByArgument {}

/// A document signer certificate made for one document of negative test material: issued by
/// the PKI's IACA like `ds.pem`, with its own validity period and deviations from the Annex B
/// profile, and marked `OU=TEST: ...` in its subject for each.
struct TestDocumentSigner {
    /// The certificate and its new private key.
    let certificate: Certificate
    let key: PrivateKey

    /// A document signer like `template` (its subject, purposes, issuer alternative name and
    /// CRL distribution point), valid from `notBefore` to `notAfter` (`template`'s by default)
    /// with `deviations`, issued by `iaca` with `iacaKey`. `time` decides which validity marks
    /// the subject gets (expired or not yet valid then).
    init(
        like template: Certificate, notBefore: Date?, notAfter: Date?, deviations: [CertificateBuilder.Deviation],
        iaca: Certificate, iacaKey: PrivateKey, at time: Date
    ) throws(CryptoError) {
        let notValidBefore = notBefore ?? template.notValidBefore
        let notValidAfter = notAfter ?? template.notValidAfter
        var marks = deviations.map { "TEST: \($0.explanation)" }
        if time < notValidBefore { marks.append("TEST: not yet valid") }
        if time >= notValidAfter { marks.append("TEST: expired") }
        var subject = CertificateBuilder.DistinguishedName(
            commonName: template.commonName ?? "Document Signer", country: template.countryName ?? iaca.countryName ?? "")
        subject.organizationalUnits = marks
        let replacesPurposes = !Set(deviations).isDisjoint(with: [.noExtendedKeyUsage, .wrongExtendedKeyUsage])
        var builder = CertificateBuilder(
            profile: .documentSigner, subject: subject, notValidBefore: notValidBefore, notValidAfter: notValidAfter,
            issuerAlternativeName: Self.alternativeName(template) ?? .uri("https://issuer.example"),
            crlDistributionPoint: Self.crlDistributionPoint(template) ?? "https://issuer.example/crl/iaca.crl",
            extendedKeyUsageOIDs: replacesPurposes ? nil : template.extendedKeyUsage)
        builder.deviations = Set(deviations)
        key = try PrivateKey(generating: iacaKey.curve)
        certificate = try builder.issued(for: key.publicKey, by: iaca, signingKey: iacaKey)
    }

    /// The first name of `certificate`'s issuerAltName, from OpenSSL's text of it (`URI:...` or
    /// `email:...`).
    static func alternativeName(_ certificate: Certificate) -> CertificateBuilder.AlternativeName? {
        guard let text = certificate.extensions.first(where: { $0.oid == "2.5.29.18" })?.text,
            let first = text.split(separator: ";").first.map({ String($0).trimmingASCIIWhitespace() })
        else { return nil }
        if first.hasPrefix("URI:") { return .uri(String(first.dropFirst(4))) }
        if first.hasPrefix("email:") { return .email(String(first.dropFirst(6))) }
        return nil
    }

    /// The first URI of `certificate`'s cRLDistributionPoints, from OpenSSL's text of it
    /// (`Full Name: URI:...`).
    static func crlDistributionPoint(_ certificate: Certificate) -> String? {
        guard let text = certificate.extensions.first(where: { $0.oid == "2.5.29.31" })?.text,
            let start = text.firstRange(of: "URI:")
        else { return nil }
        return String(text[start.upperBound...].prefix { $0 != ";" && $0 != " " })
    }
}
