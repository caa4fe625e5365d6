import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel
import Testing

@Suite("ISO/IEC 18013-5 Annex D.4.1.2: mdoc response")
struct D412MdocResponseTests {
    @Test("D.4.1.2 DeviceResponse decodes and re-encodes byte-exactly")
    func deviceResponse() throws {
        let bytes = AnnexD.bytes("device_response")
        let response = try DeviceResponse(encoded: bytes)
        #expect(response.encoded() == bytes)
        #expect(response.version == "1.0")
        #expect(response.status == .ok)
        #expect(response.documentErrors == nil)
        let document = try #require(response.documents?.first)
        #expect(response.documents?.count == 1)
        #expect(document.docType == AnnexD.docType)
        #expect(document.errors == nil)
        #expect(document.issuerSigned.encoded() == AnnexD.bytes("issuer_signed"))
        #expect(document.deviceSigned.encoded() == AnnexD.bytes("device_signed"))
    }

    @Test("D.4.1.2 IssuerSigned decodes and re-encodes byte-exactly, with six IssuerSignedItemBytes")
    func issuerSigned() throws {
        let bytes = AnnexD.bytes("issuer_signed")
        let issuerSigned = try IssuerSigned(encoded: bytes)
        #expect(issuerSigned.encoded() == bytes)
        #expect(issuerSigned.issuerAuth.encoded() == AnnexD.bytes("issuer_auth"))
        let items = try #require(issuerSigned.nameSpaces?[AnnexD.nameSpace])
        #expect(issuerSigned.nameSpaces?.keys == [AnnexD.nameSpace])
        #expect(items.map(\.value.digestID) == [0, 3, 4, 7, 8, 9])
        #expect(items.map(\.value.elementIdentifier) == [
            "family_name", "issue_date", "expiry_date", "document_number", "portrait", "driving_privileges",
        ])
        for item in items {
            // Each IssuerSignedItem re-encodes to the exact bytes inside its tag 24.
            #expect(item.value.encoded() == item.bytes, "\(item.value.elementIdentifier)")
            #expect(item.value.random.count >= 16, "\(item.value.elementIdentifier)")
        }
        #expect(items[0].value.elementValue == "Doe")
        #expect(items[1].value.elementValue == .tagged(CBOR.Tag.fullDateString, "2019-10-20"))
        #expect(items[2].value.elementValue == .tagged(CBOR.Tag.fullDateString, "2024-10-20"))
        #expect(items[3].value.elementValue == "123456789")
        #expect(items[4].value.elementValue == .byteString(AnnexD.bytes("portrait_jpeg")))
        #expect(items[5].value.elementValue.encoded() == AnnexD.bytes("driving_privileges"))
    }

    @Test("D.4.1.2 DeviceSigned decodes and re-encodes byte-exactly: empty DeviceNameSpaces and a DeviceMac")
    func deviceSigned() throws {
        let bytes = AnnexD.bytes("device_signed")
        let deviceSigned = try DeviceSigned(encoded: bytes)
        #expect(deviceSigned.encoded() == bytes)
        #expect(deviceSigned.nameSpaces.cbor.encoded() == [0xd8, 0x18, 0x41, 0xa0])
        #expect(deviceSigned.nameSpaces.value.nameSpaces.isEmpty)
        #expect(deviceSigned.deviceAuth.encoded() == AnnexD.bytes("device_auth"))
        guard case .deviceMac(let mac) = deviceSigned.deviceAuth else {
            Issue.record("the Annex D DeviceSigned must authenticate with a DeviceMac")
            return
        }
        #expect(mac.tag == AnnexD.bytes("device_mac_tag"))
    }
}
