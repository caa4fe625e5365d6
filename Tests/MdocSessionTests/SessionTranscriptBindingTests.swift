import MdocCBOR
import MdocCrypto
import MdocModel
import MdocSession
import Testing

@Suite("SessionTranscriptBinding: the transcript as agreed, byte-exact (ISO/IEC 18013-5 9.1.5.1)")
struct SessionTranscriptBindingTests {
    @Test("SessionTranscriptBytes and the bare SessionTranscript bind to the same bytes")
    func bothForms() throws {
        let tagged = try TestMdoc.sessionTranscript()
        let bare = try SessionTranscriptBinding(encoded: tagged.itemBytes)
        let built = SessionTranscriptBinding(tagged.transcript)
        for binding in [bare, built] {
            #expect(binding.itemBytes == tagged.itemBytes)
            #expect(binding.taggedBytes == tagged.taggedBytes)
        }
        #expect(tagged.taggedBytes == CBOR.encodedCBOR(tagged.itemBytes).encoded())
    }

    @Test("received SessionTranscriptBytes are kept as received, even with a non-preferred length")
    func keepsReceivedBytes() throws {
        let itemBytes = try TestMdoc.sessionTranscript().itemBytes
        let count = itemBytes.count
        #expect(count < 0x1_0000)
        let received: [UInt8] = [0xd8, 0x18, 0x5a, 0, 0, UInt8(count >> 8), UInt8(count & 0xff)] + itemBytes
        let binding = try SessionTranscriptBinding(encoded: received)
        #expect(binding.taggedBytes == received)
        #expect(binding.itemBytes == itemBytes)
    }

    @Test("DeviceAuthenticationBytes and ReaderAuthenticationBytes embed the transcript and the received items")
    func authenticationStructures() throws {
        let binding = try TestMdoc.sessionTranscript()
        let nameSpaces = EmbeddedCBOR(DeviceNameSpaces())
        let deviceAuthentication = try CBOR.decode(binding.deviceAuthenticationBytes(docType: TestMdoc.docType, deviceNameSpacesBytes: nameSpaces))
        let transcript = try CBOR.decode(binding.itemBytes)
        guard case .tagged(CBOR.Tag.encodedCBOR, .byteString(let inner)) = deviceAuthentication else {
            Issue.record("DeviceAuthenticationBytes must be tag 24 over a byte string")
            return
        }
        #expect(try CBOR.decode(inner) == ["DeviceAuthentication", transcript, .textString(TestMdoc.docType), nameSpaces.cbor])

        let itemsRequest = EmbeddedCBOR(ItemsRequest(docType: TestMdoc.docType, nameSpaces: [TestMdoc.nameSpace: ["family_name": true]]))
        let readerAuthentication = try CBOR.decode(binding.readerAuthenticationBytes(itemsRequestBytes: itemsRequest))
        guard case .tagged(CBOR.Tag.encodedCBOR, .byteString(let readerInner)) = readerAuthentication else {
            Issue.record("ReaderAuthenticationBytes must be tag 24 over a byte string")
            return
        }
        #expect(try CBOR.decode(readerInner) == ["ReaderAuthentication", transcript, itemsRequest.cbor])
    }

    @Test("input that is not a SessionTranscript is rejected", arguments: [
        [0x01], [0x82, 0xf6, 0xf6], [0xd8, 0x18, 0x41, 0x01], [0x83, 0xf6, 0xf6, 0xf6, 0x00], [],
    ] as [[UInt8]])
    func rejectsOtherInput(bytes: [UInt8]) {
        #expect(throws: CBORError.self) {
            _ = try SessionTranscriptBinding(encoded: bytes)
        }
    }
}
