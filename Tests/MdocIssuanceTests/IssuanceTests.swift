import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocIssuance
import MdocModel
import MdocSession
import MdocTestSupport
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

@Suite("DocumentIssuer (ISO/IEC 18013-5 9.1.2.4, 9.1.2.5)")
struct IssuanceTests {
    typealias Fixture = IssuanceFixture

    @Test("an issued document verifies with DeviceResponseVerifier", arguments: [Curve.p256, .p384, .p521, .ed25519])
    func issuedDocumentVerifies(curve: Curve) throws {
        let pki = try TestPKI()
        let issuer = try curve == .p256 ? Fixture.issuer(pki) : Fixture.issuer(pki, documentSignerCurve: curve)
        let deviceKey = try PrivateKey(generating: .p256)
        let issuerSigned = try issuer.issue(
            docType: Fixture.docType, nameSpaces: [(Fixture.nameSpace, Fixture.elements)], deviceKey: deviceKey.publicKey,
            validityInfo: Fixture.validityInfo)
        let (transcript, _) = try Fixture.session()
        let response = try Fixture.signedResponse(issuerSigned, deviceKey: deviceKey, transcript: transcript)
        let verifier = DeviceResponseVerifier(trustAnchors: [pki.iaca], sessionTranscript: transcript)
        let report = try verifier.verify(response.encoded(), at: TestPKI.referenceTime)
        #expect(report.outcome == .verified, "\(report.failureSummary)")
        let document = try #require(report.documents.first)
        #expect(document.elements.map(\.identifier) == Fixture.elements.map(\.identifier))
        #expect(document.elements.map(\.value) == Fixture.elements.map(\.value))
        #expect(document.elements.allSatisfy { $0.issuerAuthenticated && $0.verified })
        let expected: COSEAlgorithm = switch curve {
        case .p384: .es384
        case .p521: .es512
        case .ed25519: .edDSA
        default: .es256
        }
        #expect(issuerSigned.issuerAuth.algorithm == expected)
    }

    @Test("SHA-384 and SHA-512 MSOs verify", arguments: [DigestAlgorithm.sha384, .sha512])
    func otherDigestAlgorithms(algorithm: DigestAlgorithm) throws {
        let pki = try TestPKI()
        let deviceKey = try PrivateKey(generating: .p256)
        let issuerSigned = try Fixture.issuer(pki, digestAlgorithm: algorithm).issue(
            docType: Fixture.docType, nameSpaces: [(Fixture.nameSpace, Fixture.elements)], deviceKey: deviceKey.publicKey,
            validityInfo: Fixture.validityInfo)
        let mso = try Fixture.mso(issuerSigned)
        #expect(mso.digestAlgorithm == algorithm.rawValue)
        #expect(mso.valueDigests[Fixture.nameSpace]?.values.allSatisfy { $0.count == algorithm.digestByteCount } == true)
        let (transcript, _) = try Fixture.session()
        let report = DeviceResponseVerifier(trustAnchors: [pki.iaca], sessionTranscript: transcript).verify(
            try Fixture.signedResponse(issuerSigned, deviceKey: deviceKey, transcript: transcript), at: TestPKI.referenceTime)
        #expect(report.outcome == .verified, "\(report.failureSummary)")
    }

    @Test("the MSO holds version, digests of the exact item bytes, the device key, the doc type and the validity")
    func msoContents() throws {
        let pki = try TestPKI()
        let deviceKey = try PrivateKey(generating: .p256)
        let authorizations = KeyAuthorizations(nameSpaces: [Fixture.nameSpace])
        let issuerSigned = try Fixture.issuer(pki).issue(
            docType: Fixture.docType, nameSpaces: [(Fixture.nameSpace, Fixture.elements), ("org.example.extra", [("colour", "blue")])],
            deviceKey: deviceKey.publicKey, validityInfo: Fixture.validityInfo, keyAuthorizations: authorizations)
        let mso = try Fixture.mso(issuerSigned)
        #expect(mso.version == "1.0")
        #expect(mso.digestAlgorithm == "SHA-256")
        #expect(mso.docType == Fixture.docType)
        #expect(mso.validityInfo == Fixture.validityInfo)
        #expect(try mso.deviceKeyInfo.deviceKey.publicKey() == deviceKey.publicKey)
        #expect(mso.deviceKeyInfo.deviceKey.d == nil)
        #expect(mso.deviceKeyInfo.keyAuthorizations == authorizations)
        // Deterministic encoding orders the name spaces by their encoded keys.
        #expect(mso.valueDigests.keys == ["org.example.extra", Fixture.nameSpace])
        for (nameSpace, items) in issuerSigned.nameSpaces ?? OrderedMap() {
            let digests = try #require(mso.valueDigests[nameSpace])
            #expect(digests.count == items.count)
            for item in items {
                #expect(digests[item.value.digestID] == CBORBytes(DigestAlgorithm.sha256.hash(item.cbor.encoded())))
            }
        }
        // IssuerAuth: alg protected, the document signer certificate in the unprotected x5chain.
        #expect(issuerSigned.issuerAuth.protectedHeaderBytes == [0xA1, 0x01, 0x26])
        #expect(issuerSigned.issuerAuth.x5chain == [pki.documentSigner.derRepresentation])
        #expect(issuerSigned.issuerAuth.unprotectedHeaders[int: COSEHeaders.Label.x5chain] != nil)
        #expect(issuerSigned.issuerAuth.isValidSignature(publicKey: pki.documentSigner.publicKey))
    }

    @Test("digest IDs are a permutation of 0..<n per name space, and vary between issuances")
    func digestIDs() throws {
        let pki = try TestPKI()
        let issuer = Fixture.issuer(pki)
        let many = (0..<40).map { (identifier: "element_\($0)", value: CBOR(Int64($0))) }
        var orders = Set<[UInt64]>()
        for _ in 0..<3 {
            let issuerSigned = try issuer.issue(
                docType: Fixture.docType, nameSpaces: [(Fixture.nameSpace, many), ("org.example.extra", [("colour", "blue")])],
                deviceKey: PrivateKey(generating: .p256).publicKey, validityInfo: Fixture.validityInfo)
            let items = try #require(issuerSigned.nameSpaces?[Fixture.nameSpace])
            let ids = items.map(\.value.digestID)
            #expect(ids.sorted() == Array(0..<40))
            #expect(items.map(\.value.elementIdentifier) == many.map(\.identifier))
            #expect(issuerSigned.nameSpaces?["org.example.extra"]?.map(\.value.digestID) == [0])
            orders.insert(ids)
        }
        // Three identical orders of 40 shuffled IDs have probability (1/40!)^2.
        #expect(orders.count > 1)
        #expect(orders.allSatisfy { $0 != Array(0..<40) })
    }

    @Test("every random salt is 32 bytes and they are all distinct")
    func randoms() throws {
        let pki = try TestPKI()
        let issuerSigned = try Fixture.issuer(pki).issue(
            docType: Fixture.docType, nameSpaces: [(Fixture.nameSpace, Fixture.elements), ("org.example.extra", [("colour", "blue")])],
            deviceKey: PrivateKey(generating: .p256).publicKey, validityInfo: Fixture.validityInfo)
        let randoms = (issuerSigned.nameSpaces ?? OrderedMap()).values.flatMap { $0.map(\.value.random) }
        #expect(randoms.count == Fixture.elements.count + 1)
        #expect(randoms.allSatisfy { $0.count == DocumentIssuer.randomByteCount })
        #expect(DocumentIssuer.randomByteCount == 32)
        #expect(DocumentIssuer.randomByteCount >= IssuerSignedItem.minimumRandomByteCount)
        #expect(Set(randoms).count == randoms.count)
    }

    @Test("items and the MSO are deterministically encoded")
    func deterministicEncoding() throws {
        let pki = try TestPKI()
        let value: CBOR = ["b": 1, "a": ["z": true, "c": false]]
        let issuerSigned = try Fixture.issuer(pki).issue(
            docType: Fixture.docType, nameSpaces: [(Fixture.nameSpace, [("driving_privileges", value)])],
            deviceKey: PrivateKey(generating: .p256).publicKey, validityInfo: Fixture.validityInfo)
        let item = try #require(issuerSigned.nameSpaces?[Fixture.nameSpace]?.first)
        #expect(try item.bytes == CBOR.decode(item.bytes).sortedDeterministically().encoded())
        #expect(item.value.elementValue == value.sortedDeterministically())
        let mso = try issuerSigned.mobileSecurityObjectBytes()
        #expect(try mso.bytes == CBOR.decode(mso.bytes).sortedDeterministically().encoded())
    }

    // MARK: Errors

    static func issue(_ issuer: DocumentIssuer, nameSpaces: [(String, [(identifier: String, value: CBOR)])] = [(IssuanceFixture.nameSpace, IssuanceFixture.elements)],
                      docType: String = IssuanceFixture.docType, validityInfo: ValidityInfo = IssuanceFixture.validityInfo) throws {
        let deviceKey = try PrivateKey(generating: .p256).publicKey
        _ = try issuer.issue(docType: docType, nameSpaces: nameSpaces, deviceKey: deviceKey, validityInfo: validityInfo)
    }

    @Test("an empty chain or a key that is not the certificate's is refused")
    func signerErrors() throws {
        let pki = try TestPKI()
        #expect(throws: IssuanceError(.missingCertificate, "")) {
            try Self.issue(DocumentIssuer(documentSignerKey: pki.documentSignerKey, documentSignerChain: []))
        }
        #expect(throws: IssuanceError(.keyMismatch, "")) {
            try Self.issue(DocumentIssuer(documentSignerKey: pki.iacaKey, documentSignerChain: [pki.documentSigner]))
        }
    }

    @Test("an X25519 document signer key is refused: it cannot sign")
    func x25519Signer() throws {
        let pki = try TestPKI()
        let key = try PrivateKey(generating: .x25519)
        let certificate = try TestCertificateBuilder.issue(
            commonName: "x25519 ds", key: key, issuer: (pki.iaca, pki.iacaKey), extensions: [("keyUsage", "critical,keyAgreement")])
        let error = #expect(throws: IssuanceError.self) {
            try Self.issue(DocumentIssuer(documentSignerKey: key, documentSignerChain: [certificate]))
        }
        #expect(error?.code == .unsupportedCurve)
        #expect(error?.reason.contains("X25519") == true)
    }

    @Test("empty or repeated doc types, name spaces and identifiers are refused")
    func nameSpaceErrors() throws {
        let issuer = Fixture.issuer(try TestPKI())
        let cases: [(docType: String, nameSpaces: [(String, [(identifier: String, value: CBOR)])], reason: String)] = [
            ("", [("ns", [("a", 1)])], "doc type is empty"),
            (Fixture.docType, [], "no name space"),
            (Fixture.docType, [("", [("a", 1)])], "name space is empty"),
            (Fixture.docType, [("ns", [("a", 1)]), ("ns", [("b", 1)])], "\"ns\" is given twice"),
            (Fixture.docType, [("ns", [])], "\"ns\" has no data elements"),
            (Fixture.docType, [("ns", [("", 1)])], "empty data element identifier"),
            (Fixture.docType, [("ns", [("a", 1), ("a", 2)])], "\"ns/a\" is given twice"),
        ]
        for testCase in cases {
            let error = #expect(throws: IssuanceError.self) {
                try Self.issue(issuer, nameSpaces: testCase.nameSpaces, docType: testCase.docType)
            }
            #expect(error?.code == .invalidNameSpaces)
            #expect(error?.reason.contains(testCase.reason) == true, "\(String(describing: error))")
        }
        // The same identifier in two name spaces is fine.
        try Self.issue(issuer, nameSpaces: [("ns", [("a", 1)]), ("other", [("a", 1)])])
    }

    @Test("an inconsistent validity, or one signed outside the certificate's validity, is refused")
    func validityErrors() throws {
        let pki = try TestPKI()
        let issuer = Fixture.issuer(pki)
        let t = TestPKI.referenceTime
        let refused: [(ValidityInfo, String)] = [
            (ValidityInfo(signed: TDate(t), validFrom: TDate(t.addingTimeInterval(-1)), validUntil: TDate(t.addingTimeInterval(Fixture.day))),
             "before the signing time"),
            (ValidityInfo(signed: TDate(t), validFrom: TDate(t), validUntil: TDate(t)), "not after validFrom"),
            (ValidityInfo(signed: TDate(TestPKI.notBefore.addingTimeInterval(-1)), validFrom: TDate(t), validUntil: TDate(t.addingTimeInterval(Fixture.day))),
             "outside the validity"),
            (ValidityInfo(signed: TDate(TestPKI.notAfter.addingTimeInterval(1)), validFrom: TDate(TestPKI.notAfter.addingTimeInterval(1)),
                          validUntil: TDate(TestPKI.notAfter.addingTimeInterval(Fixture.day))),
             "outside the validity"),
        ]
        for (validity, reason) in refused {
            let error = #expect(throws: IssuanceError.self) { try Self.issue(issuer, validityInfo: validity) }
            #expect(error?.code == .invalidValidity)
            #expect(error?.reason.contains(reason) == true, "\(String(describing: error))")
        }
        // The bounds themselves: signed == validFrom, validUntil one second later, signed at the
        // certificate's first and last second.
        for signed in [TestPKI.notBefore, t, TestPKI.notAfter] {
            try Self.issue(issuer, validityInfo: ValidityInfo(signed: TDate(signed), validFrom: TDate(signed), validUntil: TDate(signed.addingTimeInterval(1))))
        }
    }

    @Test("an element too deep for the CBOR decoding limits is refused; one just within them is issued")
    func decodingLimits() throws {
        let issuer = Fixture.issuer(try TestPKI())
        func nested(_ depth: Int) -> CBOR {
            (0..<depth).reduce(CBOR.null) { inner, _ in .array([inner]) }
        }
        // Each container is one level: the item map and the elementValue's arrays.
        let deepest = CBORLimits.defaultMaximumDepth - 1
        try Self.issue(issuer, nameSpaces: [("ns", [("deep", nested(deepest))])])
        let error = #expect(throws: IssuanceError.self) {
            try Self.issue(issuer, nameSpaces: [("ns", [("deep", nested(deepest + 1))])])
        }
        #expect(error?.code == .exceedsDecodingLimits)
        #expect(error?.reason.contains("ns/deep") == true)
    }
}
