import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel
import Testing

@Suite("ISO/IEC 18013-5 Annex D.4.1.1: mdoc request")
struct D411MdocRequestTests {
    @Test("D.4.1.1 DeviceRequest decodes and re-encodes byte-exactly")
    func deviceRequest() throws {
        let bytes = AnnexD.bytes("device_request")
        let request = try DeviceRequest(encoded: bytes)
        #expect(request.encoded() == bytes)
        #expect(request.version == "1.0")
        #expect(request.docRequests.count == 1)
    }

    @Test("D.4.1.1 ItemsRequestBytes keep the received bytes and name the six elements in order")
    func itemsRequest() throws {
        let docRequest = try AnnexD.docRequest()
        #expect(docRequest.itemsRequest.cbor.encoded() == AnnexD.bytes("items_request_bytes"))
        #expect(docRequest.itemsRequest.bytes == AnnexD.bytes("items_request"))

        let bytes = AnnexD.bytes("items_request")
        let itemsRequest = try ItemsRequest(encoded: bytes)
        #expect(itemsRequest.encoded() == bytes)
        #expect(itemsRequest == docRequest.itemsRequest.value)
        #expect(itemsRequest.docType == AnnexD.docType)
        #expect(itemsRequest.requestInfo == nil)
        let elements = try #require(itemsRequest.nameSpaces[AnnexD.nameSpace])
        #expect(elements.keys == ["family_name", "document_number", "driving_privileges", "issue_date", "expiry_date", "portrait"])
        #expect(elements.values == [true, true, true, true, true, false])
    }

    @Test("D.4.1.1 the readerAuth COSE_Sign1 decodes and re-encodes byte-exactly")
    func readerAuth() throws {
        let docRequest = try AnnexD.docRequest()
        let readerAuth = try #require(docRequest.readerAuth)
        #expect(readerAuth.encoded() == AnnexD.bytes("reader_auth"))

        let bytes = AnnexD.bytes("reader_auth")
        let decoded = try COSESign1(encoded: bytes)
        #expect(decoded.encoded() == bytes)
        #expect(decoded.algorithm == .es256)
        #expect(decoded.protectedHeaderBytes == [0xa1, 0x01, 0x26])
        #expect(decoded.payload == nil)
        #expect(decoded.signature.count == 64)
        #expect(decoded.x5chain == [AnnexD.bytes("reader_cert")])
    }
}
