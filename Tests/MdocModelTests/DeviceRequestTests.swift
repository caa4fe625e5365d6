import MdocCBOR
import MdocCOSE
import MdocModel
import Testing

@Suite("DeviceRequest, ItemsRequest and ReaderAuthentication (ISO/IEC 18013-5 8.3.2.1.2.1, 9.1.4)")
struct DeviceRequestTests {
    static let requested: [(String, Bool)] = [
        ("family_name", true), ("document_number", true), ("driving_privileges", true),
        ("issue_date", true), ("expiry_date", true), ("portrait", false),
    ]

    @Test("D.4.1.1 DeviceRequest decodes and re-encodes byte-exactly")
    func deviceRequest() throws {
        let bytes = annexD("device_request")
        let request = try DeviceRequest(encoded: bytes)
        #expect(request.encoded() == bytes)
        #expect(request.version == "1.0")
        #expect(request.docRequests.count == 1)
        let docRequest = request.docRequests[0]
        #expect(docRequest.itemsRequest.bytes == annexD("items_request"))
        #expect(docRequest.itemsRequest.encoded() == annexD("items_request_bytes"))
        #expect(docRequest.readerAuth?.encoded() == annexD("reader_auth"))
        #expect(docRequest.readerAuth?.payload == nil)
        #expect(request.additionalEntries.isEmpty)
    }

    @Test("ItemsRequest keeps name spaces and elements in order with IntentToRetain")
    func itemsRequest() throws {
        let bytes = annexD("items_request")
        let request = try ItemsRequest(encoded: bytes)
        #expect(request.encoded() == bytes)
        #expect(request.docType == DocType.mDL)
        #expect(request.nameSpaces.keys == [NameSpace.mDL])
        let elements = try #require(request.nameSpaces[NameSpace.mDL])
        #expect(elements.keys == Self.requested.map(\.0))
        #expect(elements.values == Self.requested.map(\.1))
        #expect(request.requestInfo == nil)

        let tagged = try EmbeddedCBOR<ItemsRequest>(encoded: annexD("items_request_bytes"))
        #expect(tagged.bytes == bytes)
        #expect(tagged.value == request)

        let built = ItemsRequest(docType: DocType.mDL, nameSpaces: [NameSpace.mDL: OrderedMap(Self.requested.map { (key: $0.0, value: $0.1) })])
        #expect(built.encoded() == bytes)
    }

    @Test("requestInfo and unknown keys are kept")
    func itemsRequestExtras() throws {
        let cbor: CBOR = ["docType": "x", "nameSpaces": ["ns": ["a": false]], "requestInfo": ["purpose": 1], "future": true]
        let request = try ItemsRequest(cbor: cbor, at: .root)
        #expect(request.requestInfo?[text: "purpose"] == 1)
        #expect(request.additionalEntries[text: "future"] == true)
        #expect(request.cbor == cbor)
    }

    @Test("ReaderAuthenticationBytes from session_transcript and items_request_bytes equal Annex D")
    func readerAuthenticationBytes() throws {
        let transcript = try SessionTranscript(encoded: annexD("session_transcript"))
        let request = try DeviceRequest(encoded: annexD("device_request"))
        let authentication = ReaderAuthentication(sessionTranscript: transcript, itemsRequestBytes: request.docRequests[0].itemsRequest)
        #expect(authentication.bytes.encoded() == annexD("reader_authentication_bytes"))

        let decoded = try EmbeddedCBOR<ReaderAuthentication>(encoded: annexD("reader_authentication_bytes"))
        #expect(decoded.value.itemsRequestBytes.bytes == annexD("items_request"))
        #expect(decoded.value.sessionTranscript.encoded() == annexD("session_transcript"))
        expectCBORError(.invalidValue, at: "[0]") { () throws(CBORError) in
            _ = try ReaderAuthentication(cbor: ["DeviceAuthentication", transcript.cbor, request.docRequests[0].itemsRequest.cbor], at: .root)
        }
    }

    @Test("errors name the path inside the request")
    func requestErrors() throws {
        let cbor = try CBOR.decode(annexD("device_request"))
        expectCBORError(.missingValue, at: "top level") { () throws(CBORError) in
            _ = try DeviceRequest(cbor: removing("docRequests", from: cbor), at: .root)
        }
        expectCBORError(.invalidValue, at: "docRequests") { () throws(CBORError) in
            _ = try DeviceRequest(cbor: replacing("docRequests", with: [], in: cbor), at: .root)
        }
        let badItems = ItemsRequest(docType: DocType.mDL, nameSpaces: [:]).cbor
        let intent = replacing("nameSpaces", with: ["org.iso.18013.5.1": ["family_name": 1]], in: badItems)
        let docRequest: CBOR = ["itemsRequest": .encodedCBOR(intent.encoded())]
        expectCBORError(.unexpectedType, at: #"docRequests[0].itemsRequest<<>>.nameSpaces["org.iso.18013.5.1"].family_name"#) { () throws(CBORError) in
            _ = try DeviceRequest(cbor: ["version": "1.0", "docRequests": [docRequest]], at: .root)
        }
        expectCBORError(.missingValue, at: "docRequests[0].itemsRequest<<>>") { () throws(CBORError) in
            _ = try DeviceRequest(cbor: ["version": "1.0", "docRequests": [["itemsRequest": .encodedCBOR(removing("docType", from: badItems).encoded())]]], at: .root)
        }
        expectCBORError(.unexpectedType, at: "docRequests[0].readerAuth") { () throws(CBORError) in
            _ = try DeviceRequest(cbor: ["version": "1.0", "docRequests": [["itemsRequest": .encodedCBOR(badItems.encoded()), "readerAuth": 1]]], at: .root)
        }
        expectCBORError(.unexpectedType, at: "nameSpaces[0]") { () throws(CBORError) in
            _ = try ItemsRequest(cbor: ["docType": "x", "nameSpaces": [1: ["a": true]]], at: .root)
        }
    }
}
