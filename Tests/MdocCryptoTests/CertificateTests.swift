import COpenSSL
import MdocCrypto
import MdocTestSupport
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

@Suite("Certificate parsing (RFC 5280, ISO/IEC 18013-5 Annex D certificates)")
struct CertificateTests {
    static func annexD(_ name: String) throws -> Certificate {
        try Certificate(derEncoded: Vectors.annexD(name))
    }

    /// The bytes of a lowercase hex literal.
    func hexBytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count - 1, by: 2).compactMap {
            UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16)
        }
    }

    @Test func documentSignerFields() throws {
        let bytes = Vectors.annexD("ds_cert")
        let ds = try Certificate(derEncoded: bytes)
        #expect(ds.derRepresentation == bytes)
        #expect(ds.subject == "CN=utopia ds, C=US")
        #expect(ds.issuer == "CN=utopia iaca, C=US")
        #expect(ds.commonName == "utopia ds")
        #expect(ds.serialNumber == "3c4416eed784f3b413e48f56f075abfa6d87eb84")
        #expect(ds.notValidBefore == Date(timeIntervalSince1970: 1_601_510_400))  // 2020-10-01
        #expect(ds.notValidAfter == Date(timeIntervalSince1970: 1_633_046_400))  // 2021-10-01
        #expect(ds.publicKey.curve == .p256)
        #expect(ds.keyUsage == [.digitalSignature])
        #expect(ds.extendedKeyUsage == ["1.0.18013.5.1.2"])
        #expect(ds.basicConstraints == nil)
        #expect(ds.subjectKeyIdentifier == hexBytes("14e29017a6c35621ffc7a686b7b72db06cd12351"))
        #expect(ds.authorityKeyIdentifier == hexBytes("54fa2383a04c28e0d930792261c80c4881d2c00b"))
        #expect(ds.signatureAlgorithm == .ecdsaWithSHA256)
        #expect(ds.signatureAlgorithm.name == "ecdsa-with-SHA256")
        #expect(ds.criticalExtensionOIDs == ["2.5.29.15", "2.5.29.37"])
        #expect(ds.hasIssuerAlternativeName)
        #expect(!ds.isSelfIssued)
    }

    @Test func iacaFields() throws {
        let iaca = try Self.annexD("iaca_cert")
        #expect(iaca.subject == "CN=utopia iaca, C=US")
        #expect(iaca.isSelfIssued)
        #expect(iaca.serialNumber == "2ab4edd052b2582f4c6ad96186de70f4de5a3994")
        #expect(iaca.notValidAfter == Date(timeIntervalSince1970: 1_885_334_400))  // 2029-09-29
        #expect(iaca.basicConstraints == Certificate.BasicConstraints(isCA: true, pathLength: 0))
        #expect(iaca.keyUsage == [.keyCertSign, .cRLSign])
        #expect(iaca.keyUsage?.description == "keyCertSign, cRLSign")
        #expect(iaca.extendedKeyUsage == nil)
        #expect(iaca.authorityKeyIdentifier == nil)
        #expect(iaca.subjectKeyIdentifier == hexBytes("54fa2383a04c28e0d930792261c80c4881d2c00b"))
        #expect(Set(iaca.criticalExtensionOIDs) == ["2.5.29.15", "2.5.29.19"])
        #expect(iaca.isSignedBy(iaca))
    }

    @Test func readerCertificates() throws {
        let root = try Self.annexD("reader_root_cert")
        let reader = try Self.annexD("reader_cert")
        #expect(root.subject == "CN=reader root")
        #expect(root.serialNumber == "30d747795405d564b7ac48be6f364ae2c774f2fc")
        #expect(root.basicConstraints?.pathLength == 0)
        #expect(!root.hasIssuerAlternativeName)
        #expect(reader.subject == "CN=reader")
        #expect(reader.issuer == "CN=reader root")
        #expect(reader.serialNumber == "7552715f6add323d4934a1ba175dc945755d8b50")
        #expect(reader.notValidAfter == Date(timeIntervalSince1970: 1_703_980_800))  // 2023-12-31
        #expect(reader.extendedKeyUsage == ["1.0.18013.5.1.6"])
        #expect(reader.authorityKeyIdentifier == root.subjectKeyIdentifier)
        #expect(reader.isSignedBy(root))
        #expect(!reader.isSignedBy(reader))
    }

    @Test func jwsSignerCertificate() throws {
        let jws = try Self.annexD("server_retrieval_jws_signer_cert")
        #expect(jws.subject == "CN=utopia jws, C=US")
        #expect(jws.serialNumber == "15aa7a6cba90387b7874d7aca12fc36e81d23dcd")
        #expect(jws.extendedKeyUsage == [CertificateProfile.jwsSignerOID])
        #expect(jws.isSignedBy(try Self.annexD("iaca_cert")))
    }

    @Test func signatureCheckNeedsTheRightIssuer() throws {
        let ds = try Self.annexD("ds_cert")
        #expect(ds.isSignedBy(try Self.annexD("iaca_cert")))
        #expect(!ds.isSignedBy(try Self.annexD("reader_root_cert")))
    }

    @Test func leafKeyVerifiesTheAnnexDSignatures() throws {
        let ds = try Self.annexD("ds_cert")
        let issuerSignature = Array(Vectors.annexD("issuer_auth").suffix(64))
        let issuerSigned = Vectors.annexD("issuer_auth_sig_structure")
        #expect(ds.isValidSignature(issuerSignature, for: issuerSigned, digest: .sha256))
        #expect(!ds.isValidSignature(issuerSignature, for: issuerSigned + [0], digest: .sha256))
        let reader = try Self.annexD("reader_cert")
        let readerSignature = Array(Vectors.annexD("reader_auth").suffix(64))
        let readerSigned = Vectors.annexD("reader_auth_sig_structure")
        #expect(reader.isValidSignature(readerSignature, for: readerSigned, digest: .sha256))
        #expect(!ds.isValidSignature(readerSignature, for: readerSigned, digest: .sha256))
    }

    @Test func equalityIsByDER() throws {
        #expect(try Self.annexD("ds_cert") == Self.annexD("ds_cert"))
        #expect(try Self.annexD("ds_cert") != Self.annexD("iaca_cert"))
        #expect(Set([try Self.annexD("ds_cert"), try Self.annexD("ds_cert")]).count == 1)
    }

    @Test func pemRoundTripKeepsTheBytes() throws {
        let ds = try Self.annexD("ds_cert")
        let iaca = try Self.annexD("iaca_cert")
        #expect(ds.pemRepresentation.hasPrefix("-----BEGIN CERTIFICATE-----\n"))
        #expect(try Certificate(pemEncoded: ds.pemRepresentation) == ds)
        let bundle = "leading text\n" + ds.pemRepresentation + "-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n"
            + "-----END EC PARAMETERS-----\n" + iaca.pemRepresentation
        #expect(try Certificate.certificates(pemEncoded: bundle) == [ds, iaca])
    }

    @Test func pemWithoutExactlyOneCertificateIsRejected() throws {
        let ds = try Self.annexD("ds_cert")
        #expect(throws: CryptoError(.invalidEncoding, "")) { try Certificate(pemEncoded: "no PEM here") }
        #expect(throws: CryptoError(.invalidEncoding, "")) { try Certificate(pemEncoded: "") }
        #expect(throws: CryptoError(.invalidEncoding, "")) {
            try Certificate(pemEncoded: ds.pemRepresentation + ds.pemRepresentation)
        }
        #expect(try Certificate.certificates(pemEncoded: "nothing").isEmpty)
        let brokenBase64 = "-----BEGIN CERTIFICATE-----\n!!!!\n-----END CERTIFICATE-----\n"
        #expect(throws: CryptoError(.invalidEncoding, "")) { try Certificate.certificates(pemEncoded: brokenBase64) }
        let noEndLine = "-----BEGIN CERTIFICATE-----\n" + ds.pemRepresentation.split(separator: "\n")[1] + "\n"
        #expect(throws: CryptoError(.invalidEncoding, "")) { try Certificate.certificates(pemEncoded: noEndLine) }
    }

    @Test func malformedDERIsInvalidEncoding() throws {
        let ds = Vectors.annexD("ds_cert")
        let inputs: [(String, [UInt8])] = [
            ("empty", []),
            ("garbage", [0x01, 0x02, 0x03, 0x04]),
            ("truncated", Array(ds.dropLast(10))),
            ("header only", Array(ds.prefix(4))),
            ("trailing byte", ds + [0x00]),
            ("CBOR, not DER", Vectors.annexD("device_auth")),
        ]
        for (label, bytes) in inputs {
            #expect(throws: CryptoError(.invalidEncoding, ""), "\(label)") { try Certificate(derEncoded: bytes) }
        }
        let error = #expect(throws: CryptoError.self) { try Certificate(derEncoded: ds + [0x00]) }
        #expect(error?.reason == "certificate: 1 byte follows the certificate's 499 DER bytes")
    }

    @Test func everyTruncationIsRejectedWithoutCrashing() {
        let ds = Vectors.annexD("ds_cert")
        for length in 0..<ds.count {
            #expect(throws: CryptoError.self) { try Certificate(derEncoded: Array(ds.prefix(length))) }
        }
    }

    @Test func generatedCertificatesRoundTrip() {
        let root = TestPKI.root("test iaca")
        let ed25519 = TestPKI.issue(
            "ed25519 ds", key: TestKeyPair(algorithm: "ED25519", group: nil), issuer: root,
            extensions: TestPKI.leafExtensions(), serial: 0x1234, digest: EVP_sha384()
        )
        #expect(ed25519.certificate.publicKey.curve == .ed25519)
        #expect(ed25519.certificate.serialNumber == "1234")
        #expect(ed25519.certificate.signatureAlgorithm == .ecdsaWithSHA384)
        #expect(ed25519.certificate.isSignedBy(root.certificate))
        let edRoot = TestPKI.issue(
            "ed root", key: TestKeyPair(algorithm: "ED25519", group: nil), issuer: nil,
            extensions: TestPKI.rootExtensions(), digest: nil
        )
        #expect(edRoot.certificate.signatureAlgorithm == .ed25519)
        #expect(edRoot.certificate.isSignedBy(edRoot.certificate))
    }

    @Test func keysOutsideISO18013_5AreUnsupported() {
        let der = TestPKI.derCertificate(
            "rsa", key: TestKeyPair(algorithm: "RSA", group: nil), issuer: nil, extensions: TestPKI.rootExtensions()
        )
        #expect(throws: CryptoError(.unsupportedAlgorithm, "")) { try Certificate(derEncoded: der) }
    }

    @Test func namesAreEscapedAsRFC4514() {
        let root = TestPKI.root("a,b+c \"quoted\" Zürich")
        #expect(root.certificate.subject == "CN=a\\,b\\+c \\\"quoted\\\" Zürich, C=US")
        #expect(root.certificate.commonName == "a,b+c \"quoted\" Zürich")
    }

    @Test func keyUsageDescriptions() {
        #expect(Certificate.KeyUsage([.digitalSignature, .decipherOnly]).description == "digitalSignature, decipherOnly")
        #expect(Certificate.KeyUsage().description == "none")
        #expect(Certificate.BasicConstraints(isCA: true, pathLength: 0).description == "cA=true, pathLenConstraint=0")
    }
}
