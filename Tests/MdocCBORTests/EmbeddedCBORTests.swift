import MdocCBOR
import Testing

/// `#6.24(bstr .cbor Value)` keeps the bytes it received (RFC 8949 section 3.4.5.1; docs/architecture.md rule 1).
struct EmbeddedCBORTests {
    @Test func receivedBytesSurviveEvenWhenNotPreferred() throws {
        // 24(<< 1 >>) with 1 written in three bytes, 0x190001.
        let message = try bytes("d818 43 190001")
        let decoded = try CBOR.decode(message)
        #expect(decoded == .tagged(24, .byteString([0x19, 0x00, 0x01])))
        let embedded = try EmbeddedCBOR<CBOR>(cbor: decoded, at: .root)
        #expect(embedded.bytes == [0x19, 0x00, 0x01])
        #expect(embedded.value == 1)
        #expect(embedded.encoded() == message)
        #expect(embedded.cbor == decoded)
        #expect(try EmbeddedCBOR<CBOR>(encoded: message) == embedded)
    }

    @Test func buildingEncodesTheValue() throws {
        let embedded = EmbeddedCBOR<CBOR>(["a": 1])
        #expect(embedded.bytes == (try bytes("a1616101")))
        #expect(embedded.encoded() == (try bytes("d818 44 a1616101")))
        let fromBytes = try EmbeddedCBOR<CBOR>(bytes: [0xa1, 0x61, 0x61, 0x01])
        #expect(fromBytes == embedded)
    }

    @Test func errorsInsideTheContentAreLocated() throws {
        let outer = CBORPath("nameSpaces").appending(index: 3)
        let truncatedContent = try CBOR.decode(try bytes("d818 42 62c3"))
        do {
            _ = try EmbeddedCBOR<CBOR>(cbor: truncatedContent, at: outer)
            Issue.record("decoded a truncated embedded item")
        } catch {
            #expect(error.code == .declaredLengthExceedsInput)
            #expect(error.path == outer.appending(.embedded))
            #expect(error.path.description == "nameSpaces[3]<<>>")
        }
        let nested = try CBOR.decode(try bytes("d818 45 a1 6161 81 1c"))
        do {
            _ = try EmbeddedCBOR<CBOR>(cbor: nested, at: outer)
            Issue.record("decoded a malformed embedded item")
        } catch {
            #expect(error.code == .malformed)
            #expect(error.path.description == "nameSpaces[3]<<>>.a[0]")
        }
    }

    @Test func wrongWrappersAreRejected() throws {
        #expect(throws: CBORError(.unexpectedType, "")) { try EmbeddedCBOR<CBOR>(cbor: .byteString([1]), at: .root) }
        #expect(throws: CBORError(.unexpectedType, "")) { try EmbeddedCBOR<CBOR>(cbor: .tagged(24, 1), at: .root) }
        #expect(throws: CBORError(.unexpectedType, "")) { try EmbeddedCBOR<CBOR>(cbor: .tagged(25, .byteString([1])), at: .root) }
        #expect(throws: CBORError(.trailingBytes, "")) { try EmbeddedCBOR<CBOR>(bytes: [0x01, 0x02]) }
    }

    @Test func representableRoundTrip() throws {
        let value: CBOR = ["docType": "org.iso.18013.5.1.mDL", "n": [1, 2]]
        let encoded = value.encoded()
        #expect(try CBOR(encoded: encoded) == value)
        let tight = CBORLimits(maximumDepth: 1, maximumItemCount: 100, maximumInputSize: 100)
        #expect(throws: CBORError(.depthLimitExceeded, "")) { try CBOR(encoded: encoded, limits: tight) }
    }
}
