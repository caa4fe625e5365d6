import MdocCBOR
import MdocCOSE
import MdocTestSupport
import Testing

@Suite("Malformed COSE_Sign1 and COSE_Mac0 structures")
struct COSEDecodingErrorTests {
    let path = CBORPath("issuerAuth")
    let signature = CBOR.byteString([UInt8](repeating: 7, count: 64))

    func decodeError(_ item: CBOR) -> CBORError? {
        do {
            _ = try COSESign1(cbor: item, at: path)
            return nil
        } catch {
            return error
        }
    }

    func expectError(_ item: CBOR, _ code: CBORError.Code, at expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let error = decodeError(item)
        #expect(error?.code == code, sourceLocation: sourceLocation)
        #expect(error?.path.description == expected, sourceLocation: sourceLocation)
    }

    @Test("a COSE_Sign1 that is not an array of four")
    func wrongShape() {
        expectError([.byteString(hex("a10126")), [:], .null], .invalidValue, at: "issuerAuth")
        expectError([.byteString(hex("a10126")), [:], .null, signature, signature], .invalidValue, at: "issuerAuth")
        expectError([:], .unexpectedType, at: "issuerAuth")
        expectError(.tagged(COSEMac0.tag, [.byteString(hex("a10126")), [:], .null, signature]), .unexpectedType, at: "issuerAuth")
        expectError(.tagged(COSESign1.tag, [.byteString(hex("a10126")), [:], .null]), .invalidValue, at: "issuerAuth<tag 18>")
    }

    @Test("a protected header that is not a byte string")
    func protectedNotBytes() {
        expectError([[1: -7], [:], .null, signature], .unexpectedType, at: "issuerAuth[0]")
    }

    @Test("protected header bytes that do not encode a map")
    func protectedNotMap() {
        expectError([.byteString([0x01]), [:], .null, signature], .unexpectedType, at: "issuerAuth[0]")
        expectError([.byteString(hex("a101")), [:], .null, signature], .declaredLengthExceedsInput, at: "issuerAuth[0]")
        expectError([.byteString(hex("a1012600")), [:], .null, signature], .trailingBytes, at: "issuerAuth[0]")
    }

    @Test("wrong types for the other elements")
    func otherElements() {
        expectError([.byteString(hex("a10126")), [], .null, signature], .unexpectedType, at: "issuerAuth[1]")
        expectError([.byteString(hex("a10126")), [:], 5, signature], .unexpectedType, at: "issuerAuth[2]")
        expectError([.byteString(hex("a10126")), [:], .null, "signature"], .unexpectedType, at: "issuerAuth[3]")
    }

    @Test("header rules of RFC 9052 section 3")
    func headerRules() {
        // alg of the wrong type, a label that is neither integer nor text, a label in both buckets
        expectError([.byteString(hex("a10140")), [:], .null, signature], .unexpectedType, at: "issuerAuth[0][1]")
        expectError([.byteString(hex("a10126")), [.byteString([1]): 1], .null, signature], .unexpectedType, at: "issuerAuth[1][0]")
        expectError([.byteString(hex("a10126")), [1: -7], .null, signature], .invalidValue, at: "issuerAuth[1]")
        // crit: unprotected, empty, naming an unknown label, naming an absent label
        expectError([.byteString(hex("a10126")), [2: [1]], .null, signature], .invalidValue, at: "issuerAuth[1][2]")
        expectError([.byteString(hex("a2012602 80")), [:], .null, signature], .invalidValue, at: "issuerAuth[0][2]")
        expectError([.byteString(hex("a3 0126 02811863 186301")), [:], .null, signature],
                    .invalidValue, at: "issuerAuth[0][2][0]")
        expectError([.byteString(hex("a201260281 04")), [:], .null, signature], .missingValue, at: "issuerAuth[0][2][0]")
        expectError([.byteString(hex("a201260281 02")), [:], .null, signature], .invalidValue, at: "issuerAuth[0][2][0]")
    }

    @Test("crit naming an understood label present in the protected header is accepted")
    func criticalAccepted() throws {
        let sign1 = try COSESign1(cbor: [.byteString(hex("a201260281 01")), [:], .null, signature], at: path)
        #expect(sign1.algorithm == .es256)
    }

    @Test("x5chain: one bstr, an array of bstr, nothing else")
    func x5chainShapes() throws {
        let one = try COSESign1(cbor: [.byteString(hex("a10126")), [33: .byteString([1])], .null, signature], at: path)
        #expect(one.x5chain == [[1]])
        let two = try COSESign1(cbor: [.byteString(hex("a10126")), [33: [.byteString([1]), .byteString([2])]], .null, signature], at: path)
        #expect(two.x5chain == [[1], [2]])
        let none = try COSESign1(cbor: [.byteString(hex("a10126")), [:], .null, signature], at: path)
        #expect(none.x5chain.isEmpty)
        expectError([.byteString(hex("a10126")), [33: []], .null, signature], .invalidValue, at: "issuerAuth[1][33]")
        expectError([.byteString(hex("a10126")), [33: [.byteString([1]), "cert"]], .null, signature], .unexpectedType, at: "issuerAuth[1][33][1]")
        expectError([.byteString(hex("a10126")), [33: "cert"], .null, signature], .unexpectedType, at: "issuerAuth[1][33]")
    }

    @Test("kid is read from either header")
    func keyIdentifier() throws {
        let unprotected = try COSESign1(cbor: [.byteString(hex("a10126")), [4: .byteString([1, 2])], .null, signature], at: path)
        #expect(unprotected.headers.keyIdentifier == [1, 2])
        // {1: -7, 4: h'03'}
        let protected = try COSESign1(cbor: [.byteString(hex("a2012604 4103")), [:], .null, signature], at: path)
        #expect(protected.headers.keyIdentifier == [3])
        let none = try COSESign1(cbor: [.byteString(hex("a10126")), [:], .null, signature], at: path)
        #expect(none.headers.keyIdentifier == nil)
    }

    @Test("x5chain in the protected header is read too")
    func x5chainProtected() throws {
        // {1: -7, 33: h'01'}
        let sign1 = try COSESign1(cbor: [.byteString(hex("a201261821 4101")), [:], .null, signature], at: path)
        #expect(sign1.x5chain == [[1]])
    }

    @Test("x5chain length limit: the maximum accepted, one more rejected")
    func x5chainLimit() throws {
        let limit = COSEHeaders.maximumX5ChainLength
        let atLimit = CBOR.array((0..<limit).map { .byteString([UInt8($0)]) })
        let sign1 = try COSESign1(cbor: [.byteString(hex("a10126")), [33: atLimit], .null, signature], at: path)
        #expect(sign1.x5chain.count == limit)
        let overLimit = CBOR.array((0...limit).map { .byteString([UInt8($0)]) })
        expectError([.byteString(hex("a10126")), [33: overLimit], .null, signature], .itemCountLimitExceeded, at: "issuerAuth[1][33]")
    }

    @Test("an empty protected header is h'' and re-encodes as h''")
    func emptyProtected() throws {
        let sign1 = try COSESign1(cbor: [.byteString([]), [:], .byteString([1]), signature], at: path)
        #expect(sign1.protectedHeaders.isEmpty)
        #expect(sign1.protectedHeaderBytes.isEmpty)
        #expect(sign1.algorithm == nil)
        #expect(sign1.encoded().prefix(2) == [0x84, 0x40])
        #expect(sign1.toBeSigned() == hex("846a5369676e61747572653140404101"))
        let emptyMap = try COSESign1(cbor: [.byteString([0xa0]), [:], .byteString([1]), signature], at: path)
        #expect(emptyMap.protectedHeaders.isEmpty)
        #expect(emptyMap.protectedHeaderBytes == [0xa0], "a received h'a0' is kept, not replaced by h''")
        #expect(emptyMap.toBeSigned() == hex("846a5369676e61747572653141a0404101"))
    }

    @Test("a received protected header is kept as its bytes, even when not deterministically encoded")
    func protectedKeptAsReceived() throws {
        // {1: -7} with the label written in a non-shortest form (0x18 0x01)
        let bytes = hex("a1180126")
        let sign1 = try COSESign1(cbor: [.byteString(bytes), [:], .byteString([1]), signature], at: path)
        #expect(sign1.protectedHeaderBytes == bytes)
        #expect(sign1.algorithm == .es256)
        #expect(sign1.toBeSigned() == hex("846a5369676e617475726531") + [0x44] + bytes + hex("404101"))
        #expect(sign1.encoded() == [0x84, 0x44] + bytes + hex("a04101") + [0x58, 0x40] + [UInt8](repeating: 7, count: 64))
    }

    @Test("COSE_Mac0 reports the same errors with its own paths")
    func mac0Errors() {
        let macPath = CBORPath("deviceAuth", "deviceMac")
        #expect(throws: CBORError(.invalidValue, "")) {
            try COSEMac0(cbor: [.byteString(hex("a10105")), [:], .null], at: macPath)
        }
        do {
            _ = try COSEMac0(cbor: [.byteString([0x01]), [:], .null, .byteString([])], at: macPath)
            Issue.record("decoded a protected header that is not a map")
        } catch {
            #expect(error.code == .unexpectedType)
            #expect(error.path.description == "deviceAuth.deviceMac[0]")
        }
        do {
            _ = try COSEMac0(cbor: [.byteString(hex("a10105")), [:], .null, .null], at: macPath)
            Issue.record("decoded a tag that is not a byte string")
        } catch {
            #expect(error.path.description == "deviceAuth.deviceMac[3]")
        }
        #expect(throws: CBORError(.unexpectedType, "")) {
            try COSEMac0(cbor: .tagged(COSESign1.tag, [.byteString(hex("a10105")), [:], .null, .byteString([])]), at: macPath)
        }
    }
}
