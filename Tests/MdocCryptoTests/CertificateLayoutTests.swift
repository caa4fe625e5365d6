import COpenSSL
@testable import MdocCrypto
import MdocTestSupport
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The DER walk of a certificate (RFC 5280 section 4.1, X.690 section 10) and the fields read
/// from it, against OpenSSL's `d2i_X509` of the same certificate.
@Suite("Certificate DER walk (RFC 5280 section 4.1) against d2i_X509")
struct CertificateLayoutTests {
    static let annexDNames = ["ds_cert", "iaca_cert", "reader_cert", "reader_root_cert", "server_retrieval_jws_signer_cert"]

    /// `der` with its outer length in a long form with a leading zero octet: BER that OpenSSL
    /// decodes and the DER walk refuses, so the copy is decoded whole by `d2i_X509`.
    static func looselyEncoded(_ der: [UInt8]) throws -> [UInt8] {
        try #require(der.count > 4 && der[0] == 0x30 && der[1] == 0x82)
        return [0x30, 0x83, 0x00] + der[2...]
    }

    /// Every field the type reads, as text.
    static func fields(_ certificate: Certificate) -> [String] {
        [
            certificate.subject, certificate.issuer, certificate.commonName ?? "-", certificate.countryName ?? "-",
            certificate.serialNumber, "\(certificate.notValidBefore)", "\(certificate.notValidAfter)",
            "\(certificate.publicKey.curve) \(certificate.publicKey.derRepresentation)", "\(String(describing: certificate.keyUsage))",
            "\(String(describing: certificate.extendedKeyUsage))", "\(String(describing: certificate.basicConstraints))",
            "\(String(describing: certificate.subjectKeyIdentifier))", "\(String(describing: certificate.authorityKeyIdentifier))",
            certificate.signatureAlgorithm.oid, certificate.signatureAlgorithm.name, "\(certificate.criticalExtensionOIDs)",
            "\(certificate.hasIssuerAlternativeName)", "\(certificate.isSelfIssued)", "\(certificate.version)",
            "\(certificate.extensions)", "\(certificate.isSelfSigned)",
        ]
    }

    static func certificates() throws -> [[UInt8]] {
        let root = TestPKI.root()
        let edRoot = TestPKI.issue(
            "ed iaca", key: TestKeyPair(algorithm: "ED25519", group: nil), issuer: nil, extensions: TestPKI.rootExtensions(),
            digest: nil)
        var tamperedRoot = root.certificate.derRepresentation
        tamperedRoot[tamperedRoot.count - 1] ^= 0x01
        let notSelfSigned = TestPKI.root(
            extensions: TestPKI.rootExtensions() + [("authorityKeyIdentifier", "DER:30168014" + String(repeating: "ab", count: 20))])
        return annexDNames.map { Vectors.annexD($0) } + [
            root.certificate.derRepresentation, tamperedRoot, notSelfSigned.certificate.derRepresentation,
            TestPKI.issue("test ds", issuer: root, extensions: TestPKI.leafExtensions()).certificate.derRepresentation,
            edRoot.certificate.derRepresentation,
            TestPKI.issue(
                "brainpool ds", key: TestKeyPair(group: "brainpoolP320r1"), issuer: root,
                extensions: TestPKI.leafExtensions() + [("subjectAltName", "DNS:ds.example")]
            ).certificate.derRepresentation,
        ]
    }

    @Test func walkedFieldsAreThoseOpenSSLReads() throws {
        for der in try Self.certificates() {
            let walked = try Certificate(derEncoded: der)
            let decoded = try Certificate(derEncoded: try Self.looselyEncoded(der))
            #expect(walked.layout != nil)
            #expect(decoded.layout == nil)
            #expect(Self.fields(walked) == Self.fields(decoded), "\(walked.subject)")
            #expect(walked.isSignedBy(walked) == decoded.isSignedBy(decoded))
        }
        let selfSigned = try Self.certificates().map { try Certificate(derEncoded: $0).isSelfSigned }
        #expect(selfSigned == [false, true, false, true, false, true, false, false, false, true, false])
    }

    /// Every octet of the Annex D document signer certificate changed in turn: each result
    /// either parses or is a typed error; a certificate the walk takes is one `d2i_X509` takes
    /// too, with the same fields; and its one-hop path to the IACA is established only when
    /// `X509_verify_cert` validates it.
    @Test func everyAlteredOctetIsReadAsOpenSSLReadsIt() throws {
        let ds = Vectors.annexD("ds_cert")
        let iaca = try Certificate(derEncoded: Vectors.annexD("iaca_cert"))
        let time = Date(timeIntervalSince1970: 1_609_459_200)
        let oneHop = OneHopPathValidation(anchors: [iaca])
        let store = TrustStore(anchors: [iaca])
        var walked = 0
        for index in ds.indices {
            for change: UInt8 in [0x01, 0x80, 0xff] {
                var bytes = ds
                bytes[index] ^= change
                guard let certificate = try? Certificate(derEncoded: bytes), certificate.layout != nil else { continue }
                walked += 1
                #expect(certificate.handle != nil, "d2i_X509 refuses what the walk took (octet \(index) ^ \(change))")
                if index >= 4, let decoded = try? Certificate(derEncoded: try Self.looselyEncoded(bytes)) {
                    #expect(Self.fields(certificate) == Self.fields(decoded), "octet \(index) ^ \(change)")
                }
                if oneHop.anchor(for: [certificate], at: time) != nil {
                    let outcome = store.verify(leaf: certificate, intermediates: [], at: time, maximumIntermediates: 2)
                    #expect(outcome.errors.isEmpty, "octet \(index) ^ \(change): OpenSSL reports \(outcome.errors.map(\.code))")
                }
            }
        }
        #expect(walked > 100)
    }

    /// The signature algorithms read by number are the ones OpenSSL would name: the same dotted
    /// OID and short name as the generic reading of the identifier gives.
    @Test func signatureAlgorithmsReadByNumberAreThoseOpenSSLNames() throws {
        #expect(Certificate.SignatureAlgorithm.byNID.count == Certificate.SignatureAlgorithm.iso18013_5Allowed.count)
        for (nid, algorithm) in Certificate.SignatureAlgorithm.byNID {
            let object = try #require(OBJ_nid2obj(nid))
            var text = [CChar](repeating: 0, count: 128)
            let length = OBJ_obj2txt(&text, Int32(text.count), object, 1)
            let oid = String(decoding: text.prefix(Int(max(length, 0))).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            #expect(oid == algorithm.oid)
            #expect(OBJ_nid2sn(nid).map { String(cString: $0) } == algorithm.name)
        }
    }

    /// The DER of a Name with one commonName.
    static func nameDER(_ commonName: String) throws -> [UInt8] {
        let name = try #require(X509_NAME_new())
        defer { X509_NAME_free(name) }
        #expect(X509_NAME_add_entry_by_NID(name, NID_commonName, MBSTRING_UTF8, commonName, -1, -1, 0) == 1)
        var der: UnsafeMutablePointer<UInt8>? = nil
        let length = i2d_X509_NAME(name, &der)
        defer { CRYPTO_free(der, #fileID, #line) }
        return Array(UnsafeBufferPointer(start: try #require(der), count: Int(length)))
    }

    /// A document signer's issuer Name is the IACA's subject Name, decoded once: the second is
    /// the first from the cache.
    @Test func anIssuerNameDecodedBeforeIsTakenFromTheCache() throws {
        let iaca = Vectors.annexD("iaca_cert")
        let documentSigner = Vectors.annexD("ds_cert")
        let subject = try CertificateLayout(derEncoded: iaca).subject
        let issuer = try CertificateLayout(derEncoded: documentSigner).issuer
        let cache = X509Name.Cache(capacity: X509Name.Cache.maximumNames)
        let first = try #require(iaca.withUnsafeBufferPointer { X509Name.decoding(UnsafeBufferPointer(rebasing: $0[subject]), cache: cache) })
        let second = try #require(documentSigner.withUnsafeBufferPointer {
            X509Name.decoding(UnsafeBufferPointer(rebasing: $0[issuer]), cache: cache)
        })
        #expect(first === second && cache.count == 1)
        #expect(try second.text(field: "issuer") == Certificate(derEncoded: iaca).subject)
    }

    /// The cache keeps up to its bound, and starts over when a Name beyond it comes.
    @Test func theNameCacheKeepsUpToItsBound() throws {
        let cache = X509Name.Cache(capacity: X509Name.Cache.maximumNames)
        let names = try (0...X509Name.Cache.maximumNames).map { try Self.nameDER("name \($0)") }
        var decoded: [X509Name] = []
        for der in names.dropLast() {
            decoded.append(try #require(der.withUnsafeBufferPointer { X509Name.decoding($0, cache: cache) }))
        }
        #expect(cache.count == X509Name.Cache.maximumNames)
        #expect(zip(names, decoded).allSatisfy { cache.name(for: $0) === $1 })
        _ = try #require(names.last?.withUnsafeBufferPointer { X509Name.decoding($0, cache: cache) })
        #expect(cache.count == 1 && cache.name(for: names[0]) == nil)
    }

    /// A Name that does not decode, or leaves octets over, is not kept.
    @Test func aNameThatDoesNotDecodeIsNotKept() throws {
        let cache = X509Name.Cache(capacity: X509Name.Cache.maximumNames)
        let der = try Self.nameDER("name")
        #expect((der + [0x00]).withUnsafeBufferPointer { X509Name.decoding($0, cache: cache) } == nil)
        #expect(Array(der.dropLast()).withUnsafeBufferPointer { X509Name.decoding($0, cache: cache) } == nil)
        ERR_clear_error()
        #expect(cache.count == 0)
    }

    @Test func malformedDERIsNamedWithItsOffset() throws {
        let ds = Vectors.annexD("ds_cert")
        let cases: [(String, [UInt8])] = [
            ("certificate: Certificate at offset 0: indefinite length, which DER does not allow (X.690 10.1)", [0x30, 0x80, 0x01, 0x02]),
            ("certificate: Certificate at offset 0: 495 contents octets, but only 96 remain in the enclosing structure", Array(ds.prefix(100))),
            ("certificate: Certificate at offset 0: identifier octet 0x31, expected 0x30", [0x31] + ds.dropFirst()),
            ("certificate: the DER input is empty", []),
            ("certificate: 1 byte follows the certificate's 499 DER bytes", ds + [0]),
            ("certificate: 2 bytes follow the certificate's 499 DER bytes", ds + [0, 0]),
            ("certificate: Certificate at offset 0: a length not in its shortest form, which DER requires (X.690 10.1)", [0x30, 0x81, 0x05, 1, 2, 3, 4, 5]),
        ]
        for (reason, bytes) in cases {
            let error = #expect(throws: CryptoError.self) { try Certificate(derEncoded: bytes) }
            #expect(error?.code == .invalidEncoding)
            #expect(error?.reason == reason)
        }
    }

    /// ``DERReader/maximumLengthOctets`` on each side: four length octets are read (and here
    /// claim more than the input holds), five are refused as such.
    @Test func lengthOctetsUpToTheMaximum() throws {
        let four: [UInt8] = [0x30, 0x84, 0x01, 0x00, 0x00, 0x00, 0x05]
        let five: [UInt8] = [0x30, 0x85, 0x01, 0x00, 0x00, 0x00, 0x00, 0x05]
        #expect(DERReader.maximumLengthOctets == 4)
        let fourError = #expect(throws: CryptoError.self) { try Certificate(derEncoded: four) }
        #expect(fourError?.reason == "certificate: Certificate at offset 0: 16777216 contents octets, but only 1 remain in the enclosing structure")
        let fiveError = #expect(throws: CryptoError.self) { try Certificate(derEncoded: five) }
        #expect(fiveError?.reason == "certificate: Certificate at offset 0: a length of 5 octets, more than 4")
    }

    @Test func aFieldOpenSSLDoesNotDecodeIsNamed() throws {
        var ds = Vectors.annexD("ds_cert")
        // The subject's first RelativeDistinguishedName SET made an INTEGER: still well-formed
        // TLVs, but not a Name.
        let subject = try CertificateLayout(derEncoded: ds).subject
        #expect(ds[subject.lowerBound + 2] == 0x31)
        ds[subject.lowerBound + 2] = 0x02
        let error = #expect(throws: CryptoError.self) { try Certificate(derEncoded: ds) }
        #expect(error?.reason == "certificate: subject at offset \(subject.lowerBound): OpenSSL's decoder for it refuses it")
    }

    @Test func nestedFieldErrorsNameTheField() throws {
        var ds = Vectors.annexD("ds_cert")
        // The signatureValue BIT STRING's unused-bits octet: 8 is more than a BIT STRING allows.
        let signature = try CertificateLayout(derEncoded: ds).signature
        ds[signature.octets.lowerBound - 1] = 8
        let error = #expect(throws: CryptoError.self) { try Certificate(derEncoded: ds) }
        #expect(error?.reason == "certificate: signatureValue at offset \(signature.octets.lowerBound - 3): 8 unused bits, which X.690 8.6.2 does not allow here")
    }
}
