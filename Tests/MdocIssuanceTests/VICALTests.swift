import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocIssuance
import MdocModel
import MdocTestSupport
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

@Suite("VICAL and VICALSigner (ISO/IEC 18013-5 Annex C.1.7)")
struct VICALTests {
    /// A signer (another PKI's document signer stands in for a VICAL signer: its profile is the
    /// verifier's question, not the encoding's) and two IACAs to list.
    struct Fixture {
        let signer: VICALSigner
        let listed: TestPKI
        let other: TestPKI

        init() throws {
            let signing = try TestPKI(name: "vical")
            signer = try VICALSigner(signerKey: signing.documentSignerKey, signerChain: [signing.documentSigner, signing.iaca])
            listed = try TestPKI(name: "listed")
            other = try TestPKI(name: "other")
        }

        func vical(_ infos: [VICAL.CertificateInfo]) -> VICAL {
            VICAL(
                vicalProvider: "swift-mdoc tests", date: TDate(TestPKI.referenceTime), vicalIssueID: 7,
                nextUpdate: TDate(TestPKI.referenceTime.addingTimeInterval(86_400 * 30)), certificateInfos: infos)
        }
    }

    /// An entry with a certificate blob of `size` bytes: the model does not read certificates.
    static func entry(certificateSize: Int = 8, docTypes: [String] = [DocType.mDL]) -> VICAL.CertificateInfo {
        VICAL.CertificateInfo(
            certificate: [UInt8](repeating: 0x30, count: certificateSize), serialNumber: [0x01], ski: [0x02], docType: docTypes)
    }

    @Test("a signed VICAL decodes to the list that was signed, its bytes kept, its signature verifying with the signer's key")
    func signedRoundTrip() throws {
        let fixture = try Fixture()
        let infos = [
            try VICALSigner.certificateInfo(for: fixture.listed.iaca, docTypes: [DocType.mDL], issuingAuthority: "Listed DMV"),
            try VICALSigner.certificateInfo(for: fixture.other.iaca, docTypes: [DocType.mDL, DocType.eudiPID]),
        ]
        let signed = try fixture.signer.sign(fixture.vical(infos))
        let decoded = try SignedVICAL(encoded: signed.encoded)
        #expect(decoded.encoded == signed.encoded)
        #expect(decoded.vical.cbor.encoded() == fixture.vical(infos).cbor.encoded())
        #expect(decoded.vical.vicalProvider == "swift-mdoc tests")
        #expect(decoded.vical.vicalIssueID == 7)
        #expect(decoded.vical.certificateInfos.map(\.docType) == [[DocType.mDL], [DocType.mDL, DocType.eudiPID]])
        #expect(decoded.message.x5chain == fixture.signer.signerChain.map(\.derRepresentation))
        #expect(decoded.message.algorithm == .es256)
        #expect(decoded.message.isValidSignature(publicKey: fixture.signer.signerKey.publicKey))
        #expect(!decoded.message.isValidSignature(publicKey: fixture.listed.iacaKey.publicKey))
    }

    @Test("an entry restates its certificate: serial number, subject key identifier, Names, validity and country")
    func entryRestatesTheCertificate() throws {
        let fixture = try Fixture()
        let iaca = fixture.listed.iaca
        let info = try VICALSigner.certificateInfo(for: iaca, docTypes: [DocType.mDL])
        #expect(info.certificate == iaca.derRepresentation)
        #expect(info.serialNumber.map { String($0, radix: 16).leftPadded(to: 2) }.joined() == iaca.serialNumber)
        #expect(info.serialNumber.first != 0)
        #expect(info.ski == iaca.subjectKeyIdentifier)
        // Self-signed: its issuer Name is its subject Name, and the document signer it issued
        // names it as issuer in the same octets.
        #expect(info.issuer == info.subject)
        #expect(info.subject == fixture.listed.documentSigner.issuerNameDER)
        #expect(info.subject != fixture.listed.documentSigner.subjectNameDER)
        #expect(info.notBefore?.date == iaca.notValidBefore)
        #expect(info.notAfter?.date == iaca.notValidAfter)
        #expect(info.issuingCountry == "US")
    }

    @Test("an entry with no document type, or for an IACA without a subject key identifier, is refused")
    func entryPreconditions() throws {
        let fixture = try Fixture()
        #expect(throws: IssuanceError(.invalidVICALEntry, "")) {
            try VICALSigner.certificateInfo(for: fixture.listed.iaca, docTypes: [])
        }
        let withoutSKI = try TestPKI(
            name: "no ski", iacaExtensions: TestPKI.iacaExtensions.filter { $0.0 != "subjectKeyIdentifier" },
            documentSignerExtensions: TestPKI.documentSignerExtensions.filter { $0.0 != "authorityKeyIdentifier" })
        #expect(withoutSKI.iaca.subjectKeyIdentifier == nil)
        #expect(throws: IssuanceError(.invalidVICALEntry, "")) {
            try VICALSigner.certificateInfo(for: withoutSKI.iaca, docTypes: [DocType.mDL])
        }
        #expect(throws: IssuanceError(.keyMismatch, "")) {
            try VICALSigner(signerKey: fixture.listed.iacaKey, signerChain: [fixture.listed.documentSigner])
        }
        #expect(throws: IssuanceError(.missingCertificate, "")) {
            try VICALSigner(signerKey: fixture.listed.iacaKey, signerChain: [])
        }
    }

    @Test("keys the CDDL does not name, extensions and every optional field survive decoding and encoding")
    func everyFieldIsKept() throws {
        var info = Self.entry()
        info.certificateProfile = ["urn:oid:1.0.18013.5.1.7"]
        info.issuingAuthority = "Authority"
        info.issuingCountry = "NL"
        info.stateOrProvinceName = "Utrecht"
        info.issuer = [0x30, 0x00]
        info.subject = [0x30, 0x00]
        info.notBefore = try TDate(text: "2025-01-01T00:00:00Z")
        info.notAfter = try TDate(text: "2030-01-01T00:00:00.5+01:00")
        var entryExtensions = CBORMap()
        entryExtensions.append("vendor", .unsignedInt(1))
        info.extensions = entryExtensions
        info.additionalEntries.append("futureEntryField", .array([.boolean(true)]))
        var vical = VICAL(vicalProvider: "P", date: try TDate(text: "2025-02-25T00:00:00Z"), certificateInfos: [info])
        var listExtensions = CBORMap()
        listExtensions.append("note", .textString("kept"))
        vical.extensions = listExtensions
        vical.additionalEntries.append("futureListField", .null)
        let encoded = vical.cbor.encoded()
        let decoded = try VICAL(encoded: encoded)
        #expect(decoded.cbor.encoded() == encoded)
        #expect(decoded.certificateInfos.first == info)
        #expect(decoded.vicalIssueID == nil && decoded.nextUpdate == nil)
        #expect(decoded.additionalEntries[text: "futureListField"] == .null)
        #expect(decoded.certificateInfos.first?.notAfter?.text == "2030-01-01T00:00:00.5+01:00")
    }

    @Test("each malformed field is named by its path", arguments: [
        ("serialNumber", CBOR.unsignedInt(1), "certificateInfos[0].serialNumber"),
        ("docType", CBOR.array([]), "certificateInfos[0].docType"),
        ("docType", CBOR.array([.unsignedInt(1)]), "certificateInfos[0].docType[0]"),
        ("ski", CBOR.textString("ab"), "certificateInfos[0].ski"),
        ("notAfter", CBOR.textString("2030-01-01T00:00:00Z"), "certificateInfos[0].notAfter"),
    ])
    func malformedEntryFields(key: String, value: CBOR, path: String) throws {
        guard case .map(var entry) = Self.entry().cbor else { Issue.record("an entry is a map"); return }
        entry[text: key] = value
        var list = CBORMap()
        list.append("version", .textString("1.0"))
        list.append("vicalProvider", .textString("P"))
        list.append("date", try TDate(text: "2025-02-25T00:00:00Z").cbor)
        list.append("certificateInfos", .array([.map(entry)]))
        let error = try #require(throws: CBORError.self) { try VICAL(encoded: CBOR.map(list).encoded()) }
        #expect("\(error)".contains(path), "\(error)")
    }

    @Test("a VICAL with a missing or detached payload, or that is not a COSE_Sign1, is refused")
    func envelopeErrors() throws {
        let fixture = try Fixture()
        let signed = try fixture.signer.sign(fixture.vical([Self.entry()]))
        var detached = signed.message
        detached.payload = nil
        #expect(throws: CBORError(.missingValue, "")) { try SignedVICAL(encoded: detached.encoded()) }
        #expect(throws: CBORError.self) { try SignedVICAL(encoded: fixture.vical([Self.entry()]).cbor.encoded()) }
        // Tag 18 is accepted: published lists come tagged and untagged.
        let tagged = CBOR.tagged(COSESign1.tag, signed.message.cbor).encoded()
        #expect(try SignedVICAL(encoded: tagged).vical.certificateInfos.count == 1)
    }

    @Test("the entry count limit: at the maximum the list decodes, one more is refused")
    func certificateInfoLimit() throws {
        let entries = [VICAL.CertificateInfo](repeating: Self.entry(), count: VICAL.maximumCertificateInfos)
        let atLimit = VICAL(vicalProvider: "P", date: TDate(TestPKI.referenceTime), certificateInfos: entries)
        #expect(try SignedVICAL.decodeForTest(atLimit).certificateInfos.count == VICAL.maximumCertificateInfos)
        let over = VICAL(vicalProvider: "P", date: TDate(TestPKI.referenceTime), certificateInfos: entries + [Self.entry()])
        #expect(throws: CBORError(.itemCountLimitExceeded, "")) { try SignedVICAL.decodeForTest(over) }
    }

    @Test("the document type limit of an entry: at the maximum it decodes, one more is refused")
    func docTypeLimit() throws {
        let docTypes = (0..<VICAL.CertificateInfo.maximumDocTypes).map { "doc.type.\($0)" }
        let atLimit = VICAL(vicalProvider: "P", date: TDate(TestPKI.referenceTime), certificateInfos: [Self.entry(docTypes: docTypes)])
        #expect(try VICAL(encoded: atLimit.cbor.encoded()).certificateInfos.first?.docType.count == docTypes.count)
        let over = VICAL(
            vicalProvider: "P", date: TDate(TestPKI.referenceTime), certificateInfos: [Self.entry(docTypes: docTypes + ["one.more"])])
        #expect(throws: CBORError(.itemCountLimitExceeded, "")) { try VICAL(encoded: over.cbor.encoded()) }
    }

    @Test("the size limit: a signed VICAL of exactly the maximum decodes, one byte more is refused")
    func sizeLimit() throws {
        let fixture = try Fixture()
        func signed(certificateSize: Int) throws -> [UInt8] {
            try fixture.signer.sign(fixture.vical([Self.entry(certificateSize: certificateSize)])).encoded
        }
        // Every length above 65,535 is written in four octets, so the size follows the blob's.
        let probe = 1_000_000
        let overhead = try signed(certificateSize: probe).count - probe
        let atLimit = try signed(certificateSize: SignedVICAL.maximumSize - overhead)
        #expect(atLimit.count == SignedVICAL.maximumSize)
        #expect(try SignedVICAL(encoded: atLimit).vical.certificateInfos.count == 1)
        #expect(throws: CBORError(.inputTooLarge, "")) { try SignedVICAL(encoded: atLimit + [0]) }
        #expect(throws: IssuanceError(.exceedsDecodingLimits, "")) {
            try signed(certificateSize: SignedVICAL.maximumSize - overhead + 1)
        }
    }
}

extension SignedVICAL {
    /// The list `vical` decoded within ``SignedVICAL/limits``, as the payload of a signed VICAL is.
    fileprivate static func decodeForTest(_ vical: VICAL) throws(CBORError) -> VICAL {
        try VICAL(encoded: CBORBytes(vical.cbor.encoded()), limits: limits)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
