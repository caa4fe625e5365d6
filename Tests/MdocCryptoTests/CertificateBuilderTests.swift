import MdocCrypto
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

@Suite("CertificateBuilder (ISO/IEC 18013-5 Annex B profiles)")
struct CertificateBuilderTests {
    static let now = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
    static let end = now.addingTimeInterval(3 * 365 * 86_400)
    static let crl = "https://issuer.example/crl"

    /// A root and a leaf of the two profiles, with the keys on `curve`.
    struct Pair {
        let root: Certificate
        let rootKey: PrivateKey
        let leaf: Certificate
        let leafKey: PrivateKey
    }

    static func builder(
        _ profile: CertificateBuilder.Profile, commonName: String = "test", country: String = "US",
        notValidBefore: Date = now, notValidAfter: Date = end
    ) -> CertificateBuilder {
        CertificateBuilder(
            profile: profile, subject: .init(commonName: commonName, country: country),
            notValidBefore: notValidBefore, notValidAfter: notValidAfter,
            issuerAlternativeName: .email("iaca@issuer.example"), crlDistributionPoint: crl
        )
    }

    static func pair(_ leafProfile: CertificateBuilder.Profile, curve: Curve = .p256) throws -> Pair {
        let rootKey = try PrivateKey(generating: curve)
        let leafKey = try PrivateKey(generating: curve)
        let root = try builder(leafProfile.issuerProfile, commonName: "\(leafProfile) root").selfSigned(key: rootKey)
        let leaf = try builder(leafProfile, commonName: "\(leafProfile) leaf")
            .issued(for: leafKey.publicKey, by: root, signingKey: rootKey)
        return Pair(root: root, rootKey: rootKey, leaf: leaf, leafKey: leafKey)
    }

    static func checks(_ result: CertificateValidationResult) -> Set<CertificateCheck> {
        Set(result.failures.map(\.check))
    }

    // MARK: Accepted with the right profile, rejected with the wrong one

    @Test(arguments: [
        (Curve.p256, Certificate.SignatureAlgorithm.ecdsaWithSHA256),
        (.p384, .ecdsaWithSHA384),
        (.p521, .ecdsaWithSHA512),
        (.brainpoolP256r1, .ecdsaWithSHA256),
        (.brainpoolP320r1, .ecdsaWithSHA256),
        (.brainpoolP512r1, .ecdsaWithSHA512),
        (.ed25519, .ed25519),
        (.ed448, .ed448),
    ])
    func documentSignerChainValidates(curve: Curve, algorithm: Certificate.SignatureAlgorithm) throws {
        let pair = try Self.pair(.documentSigner, curve: curve)
        #expect(pair.root.signatureAlgorithm == algorithm)
        #expect(pair.leaf.signatureAlgorithm == algorithm)
        let validator = CertificateChainValidator(trustAnchors: [pair.root])
        let result = validator.validate(chain: [pair.leaf], profile: .documentSigner, at: Self.now)
        #expect(result.isValid, "\(result)")
        #expect(result.validatedPath == [pair.leaf, pair.root])
        let wrong = validator.validate(chain: [pair.leaf], profile: .readerAuthentication, at: Self.now)
        #expect(!wrong.isValid)
        #expect(Self.checks(wrong) == [.extendedKeyUsage])
    }

    @Test(arguments: [Curve.p256, .p384, .p521])
    func readerAuthenticationChainValidates(curve: Curve) throws {
        let pair = try Self.pair(.readerAuthentication, curve: curve)
        let validator = CertificateChainValidator(trustAnchors: [pair.root])
        let result = validator.validate(chain: [pair.leaf, pair.root], profile: .readerAuthentication, at: Self.now)
        #expect(result.isValid, "\(result)")
        let wrong = validator.validate(chain: [pair.leaf], profile: .documentSigner, at: Self.now)
        #expect(Self.checks(wrong) == [.extendedKeyUsage])
    }

    @Test func certificatesAreValidOnlyInTheirPeriod() throws {
        let pair = try Self.pair(.documentSigner)
        let validator = CertificateChainValidator(trustAnchors: [pair.root])
        let before = validator.validate(chain: [pair.leaf], profile: .documentSigner, at: Self.now.addingTimeInterval(-1))
        #expect(Self.checks(before) == [.validity])
        let after = validator.validate(chain: [pair.leaf], profile: .documentSigner, at: Self.end)
        #expect(Self.checks(after) == [.validity])
        #expect(pair.leaf.notValidBefore == Self.now)
        #expect(pair.leaf.notValidAfter == Self.end)
    }

    // MARK: Fields and extensions

    @Test func rootCarriesTheAnnexBExtensions() throws {
        let pair = try Self.pair(.documentSigner)
        let iaca = pair.root
        #expect(iaca.subject == "C=US, CN=documentSigner root")
        #expect(iaca.issuer == iaca.subject)
        #expect(iaca.basicConstraints == Certificate.BasicConstraints(isCA: true, pathLength: 0))
        #expect(iaca.keyUsage == [.keyCertSign, .cRLSign])
        #expect(iaca.extendedKeyUsage == nil)
        #expect(iaca.subjectKeyIdentifier?.count == 20)
        #expect(iaca.authorityKeyIdentifier == nil)
        #expect(iaca.hasIssuerAlternativeName)
        #expect(iaca.criticalExtensionOIDs.sorted() == ["2.5.29.15", "2.5.29.19"])
        #expect(Self.hasCRLDistributionPoint(iaca))
        #expect(iaca.publicKey == pair.rootKey.publicKey)
    }

    @Test func leafCarriesTheAnnexBExtensions() throws {
        for (profile, oid) in [
            (CertificateBuilder.Profile.documentSigner, CertificateProfile.documentSignerOID),
            (.readerAuthentication, CertificateProfile.readerAuthenticationOID),
        ] {
            let pair = try Self.pair(profile)
            let leaf = pair.leaf
            #expect(leaf.issuer == pair.root.subject)
            #expect(leaf.basicConstraints == nil)
            #expect(leaf.keyUsage == .digitalSignature)
            #expect(leaf.extendedKeyUsage == [oid])
            #expect(leaf.authorityKeyIdentifier == pair.root.subjectKeyIdentifier)
            #expect(leaf.subjectKeyIdentifier != nil && leaf.subjectKeyIdentifier != pair.root.subjectKeyIdentifier)
            #expect(leaf.criticalExtensionOIDs.sorted() == ["2.5.29.15", "2.5.29.37"])
            #expect(leaf.hasIssuerAlternativeName)
            #expect(Self.hasCRLDistributionPoint(leaf))
            #expect(leaf.publicKey == pair.leafKey.publicKey)
            #expect(leaf.isSignedBy(pair.root))
        }
    }

    @Test func readerProfilesMayOmitIssuerInformation() throws {
        let key = try PrivateKey(generating: .p256)
        var builder = Self.builder(.readerRoot)
        builder.issuerAlternativeName = nil
        builder.crlDistributionPoint = nil
        let root = try builder.selfSigned(key: key)
        #expect(!root.hasIssuerAlternativeName)
        #expect(!Self.hasCRLDistributionPoint(root))
    }

    @Test func serialNumbersAreRandomPositiveAndLong() throws {
        let key = try PrivateKey(generating: .p256)
        let serials = try (0..<8).map { _ in try Self.builder(.iaca).selfSigned(key: key).serialNumber }
        #expect(Set(serials).count == serials.count)
        for serial in serials {
            #expect(serial.count == 2 * CertificateBuilder.serialNumberByteCount)
            // Top bit clear (positive), next bit set: 127 significant bits, at least 63.
            #expect(["4", "5", "6", "7"].contains(serial.first.map(String.init)))
        }
    }

    @Test func namesAndGeneralNamesAreKeptVerbatim() throws {
        let key = try PrivateKey(generating: .p256)
        var builder = Self.builder(.iaca, commonName: "Zürich, \"IACA\"")
        builder.subject.stateOrProvince = "ZH"
        builder.subject.organization = "Kanton + Stadt"
        builder.issuerAlternativeName = .uri("https://issuer.example/a,email:x@y.example")
        let iaca = try builder.selfSigned(key: key)
        #expect(iaca.commonName == "Zürich, \"IACA\"")
        #expect(iaca.subject == #"C=US, ST=ZH, O=Kanton \+ Stadt, CN=Zürich\, \"IACA\""#)
        #expect(Self.contains(iaca.derRepresentation, Array("https://issuer.example/a,email:x@y.example".utf8)))
    }

    // MARK: Refusals

    @Test func profilesMustBeUsedWithTheRightMethod() throws {
        let pair = try Self.pair(.documentSigner)
        #expect(throws: CryptoError(.invalidParameter, "")) {
            try Self.builder(.documentSigner).selfSigned(key: pair.leafKey)
        }
        #expect(throws: CryptoError(.invalidParameter, "")) {
            try Self.builder(.iaca).issued(for: pair.leafKey.publicKey, by: pair.root, signingKey: pair.rootKey)
        }
    }

    @Test func issuerMustBeACAWithTheSigningKey() throws {
        let pair = try Self.pair(.documentSigner)
        let key = try PrivateKey(generating: .p256)
        #expect(throws: CryptoError(.invalidKey, "")) {
            try Self.builder(.documentSigner).issued(for: key.publicKey, by: pair.root, signingKey: pair.leafKey)
        }
        #expect(throws: CryptoError(.invalidParameter, "")) {
            try Self.builder(.documentSigner).issued(for: key.publicKey, by: pair.leaf, signingKey: pair.leafKey)
        }
    }

    @Test func documentSignerCountryMustMatchTheIACA() throws {
        let pair = try Self.pair(.documentSigner)
        let key = try PrivateKey(generating: .p256)
        let error = #expect(throws: CryptoError(.invalidParameter, "")) {
            try Self.builder(.documentSigner, country: "NL").issued(for: key.publicKey, by: pair.root, signingKey: pair.rootKey)
        }
        #expect(error?.reason.contains("countryName NL differs from the IACA's US") == true)
        // A reader certificate may name another country than its root.
        let reader = try Self.pair(.readerAuthentication)
        _ = try Self.builder(.readerAuthentication, country: "NL")
            .issued(for: key.publicKey, by: reader.root, signingKey: reader.rootKey)
    }

    @Test func validityMustLieWithinTheIssuers() throws {
        let pair = try Self.pair(.documentSigner)
        let key = try PrivateKey(generating: .p256)
        for (from, until) in [(Self.now.addingTimeInterval(-1), Self.end), (Self.now, Self.end.addingTimeInterval(1))] {
            #expect(throws: CryptoError(.invalidParameter, "")) {
                try Self.builder(.documentSigner, notValidBefore: from, notValidAfter: until)
                    .issued(for: key.publicKey, by: pair.root, signingKey: pair.rootKey)
            }
        }
        #expect(throws: CryptoError(.invalidParameter, "")) {
            try Self.builder(.iaca, notValidBefore: Self.now, notValidAfter: Self.now).selfSigned(key: key)
        }
    }

    @Test func iacaAndDocumentSignerNeedIssuerInformation() throws {
        let key = try PrivateKey(generating: .p256)
        var withoutName = Self.builder(.iaca)
        withoutName.issuerAlternativeName = nil
        #expect(throws: CryptoError(.invalidParameter, "")) { try withoutName.selfSigned(key: key) }
        var withoutCRL = Self.builder(.iaca)
        withoutCRL.crlDistributionPoint = nil
        #expect(throws: CryptoError(.invalidParameter, "")) { try withoutCRL.selfSigned(key: key) }
    }

    @Test(arguments: ["usa", "us", "U1", "", "UÜ"])
    func countryMustBeTwoUpperCaseLetters(country: String) throws {
        let key = try PrivateKey(generating: .p256)
        #expect(throws: CryptoError(.invalidParameter, "")) {
            try Self.builder(.iaca, country: country).selfSigned(key: key)
        }
    }

    @Test func nameAttributeLengthLimit() throws {
        let key = try PrivateKey(generating: .p256)
        let limit = CertificateBuilder.maximumNameAttributeLength
        let atLimit = try Self.builder(.iaca, commonName: String(repeating: "a", count: limit)).selfSigned(key: key)
        #expect(atLimit.commonName?.count == limit)
        #expect(throws: CryptoError(.invalidParameter, "")) {
            try Self.builder(.iaca, commonName: String(repeating: "a", count: limit + 1)).selfSigned(key: key)
        }
        #expect(throws: CryptoError(.invalidParameter, "")) {
            try Self.builder(.iaca, commonName: "").selfSigned(key: key)
        }
        #expect(throws: CryptoError(.invalidParameter, "")) {
            try Self.builder(.iaca, commonName: "a\u{0}b").selfSigned(key: key)
        }
    }

    @Test func generalNameLengthLimit() throws {
        let key = try PrivateKey(generating: .p256)
        let limit = CertificateBuilder.maximumGeneralNameLength
        let prefix = "https://issuer.example/"
        var builder = Self.builder(.iaca)
        let longest = prefix + String(repeating: "c", count: limit - prefix.count)
        builder.crlDistributionPoint = longest
        #expect(Self.hasCRLDistributionPoint(try builder.selfSigned(key: key), uri: longest))
        builder.crlDistributionPoint = prefix + String(repeating: "c", count: limit - prefix.count + 1)
        #expect(throws: CryptoError(.invalidParameter, "")) { try builder.selfSigned(key: key) }
    }

    @Test(arguments: [
        CertificateBuilder.AlternativeName.email("no-at-sign"), .email("a b@example.com"), .uri("no-scheme"), .uri(""),
        .uri("https://é.example/"),
    ])
    func generalNamesMustBeIA5(name: CertificateBuilder.AlternativeName) throws {
        let key = try PrivateKey(generating: .p256)
        var builder = Self.builder(.iaca)
        builder.issuerAlternativeName = name
        #expect(throws: CryptoError(.invalidParameter, "")) { try builder.selfSigned(key: key) }
    }

    @Test func keyAgreementKeysAreRefused() throws {
        let x25519 = try PrivateKey(generating: .x25519)
        #expect(throws: CryptoError(.unsupportedAlgorithm, "")) { try Self.builder(.iaca).selfSigned(key: x25519) }
        let pair = try Self.pair(.readerAuthentication)
        #expect(throws: CryptoError(.unsupportedAlgorithm, "")) {
            try Self.builder(.readerAuthentication).issued(for: x25519.publicKey, by: pair.root, signingKey: pair.rootKey)
        }
    }

    // MARK: Helpers

    /// Whether the certificate holds a cRLDistributionPoints extension (OID 2.5.29.31) naming `uri`.
    static func hasCRLDistributionPoint(_ certificate: Certificate, uri: String = crl) -> Bool {
        contains(certificate.derRepresentation, [0x06, 0x03, 0x55, 0x1D, 0x1F])
            && contains(certificate.derRepresentation, Array(uri.utf8))
    }

    static func contains(_ bytes: [UInt8], _ part: [UInt8]) -> Bool {
        guard part.count <= bytes.count else { return false }
        return (0...(bytes.count - part.count)).contains { Array(bytes[$0..<$0 + part.count]) == part }
    }
}
