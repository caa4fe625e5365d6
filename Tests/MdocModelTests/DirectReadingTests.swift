import MdocCBOR
import MdocCOSE
@testable import MdocModel
import Testing

/// Expects that decoding in full and reading straight from the bytes gave the same value, or
/// errors with the same code and text.
func expectSameOutcome<Value: Equatable>(
    _ decoded: Result<Value, CBORError>, _ read: Result<Value, CBORError>, sourceLocation: SourceLocation
) {
    switch (decoded, read) {
    case (.success(let a), .success(let b)):
        #expect(a == b, sourceLocation: sourceLocation)
    case (.failure(let a), .failure(let b)):
        #expect(a.code == b.code && a.description == b.description, "\(a) / \(b)", sourceLocation: sourceLocation)
    default:
        Issue.record("decoded \(decoded), read \(read)", sourceLocation: sourceLocation)
    }
}

/// IssuerSignedItemBytes and MobileSecurityObjectBytes are read straight from their bytes when
/// they have the form issuers write, and decoded in full otherwise: either way the value, or the
/// error, must be the one that decoding them in full gives.
@Suite("IssuerSignedItem and MSO read from their bytes equal the decoded ones")
struct DirectReadingTests {
    /// The result of decoding `content` as IssuerSignedItemBytes in full, and that of reading it
    /// inside an IssuerSigned, where the direct reading applies.
    static func itemResults(_ content: [UInt8]) throws -> (decoded: Result<IssuerSignedItem, CBORError>, read: Result<IssuerSignedItem, CBORError>) {
        let issuerAuth = try CBOR.decode(annexD("issuer_auth"))
        let path = CBORPath(components: [.key("nameSpaces"), .key("ns"), .index(0)])
        let decoded = Result { () throws(CBORError) in try EmbeddedCBOR<IssuerSignedItem>(cbor: .encodedCBOR(content), at: path).value }
        let read = Result { () throws(CBORError) -> IssuerSignedItem in
            let issuerSigned = try IssuerSigned(cbor: ["nameSpaces": ["ns": [.encodedCBOR(content)]], "issuerAuth": issuerAuth], at: .root)
            guard let item = issuerSigned.nameSpaces?["ns"]?.first else { throw CBORError(.missingValue, "no item read") }
            return item.value
        }
        return (decoded, read)
    }

    /// Expects that `hex`, the content of an IssuerSignedItemBytes, reads directly when `direct`
    /// and decodes in full otherwise, with the same value or error either way.
    static func expectSameItem(_ hex: String, direct: Bool, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let content = try #require(Hex.decode(hex))
        #expect((IssuerSignedItem(reading: CBORBytes(content)) != nil) == direct, sourceLocation: sourceLocation)
        let (decoded, read) = try itemResults(content)
        expectSameOutcome(decoded, read, sourceLocation: sourceLocation)
    }

    // Keys as CBOR text: 68 "digestID", 66 "random", 71 "elementIdentifier", 6c "elementValue".
    static let digestID = "68 6469676573744944"
    static let random = "66 72616e646f6d"
    static let randomValue = "50 000102030405060708090a0b0c0d0e0f"
    static let elementIdentifier = "71 656c656d656e744964656e746966696572"
    static let elementValue = "6c 656c656d656e7456616c7565"

    @Test("The form issuers write, in any order and with heads of any length, reads as decoded")
    func itemForms() throws {
        let canonical = "a4 \(Self.digestID) 07 \(Self.random) \(Self.randomValue) \(Self.elementIdentifier) 6b 66616d696c795f6e616d65 \(Self.elementValue) 63 446f65"
        try Self.expectSameItem(canonical, direct: true)
        let item = try Self.itemResults(try #require(Hex.decode(canonical))).read.get()
        #expect(item.digestID == 7 && item.elementIdentifier == "family_name" && item.elementValue == "Doe")
        #expect(item.random == Array(0...15))
        // Value first, long heads for the map, the ID, the salt and a key.
        try Self.expectSameItem(
            "b9 0004 \(Self.elementValue) d9 03ec 6a 323032302d30312d3031 \(Self.elementIdentifier) 61 78 "
                + "78 08 6469676573744944 1b 0000000000000007 \(Self.random) 58 10 000102030405060708090a0b0c0d0e0f", direct: true)
        // Nested values, and an embedded item inside the value.
        try Self.expectSameItem(
            "a4 \(Self.digestID) 07 \(Self.random) \(Self.randomValue) \(Self.elementIdentifier) 61 78 \(Self.elementValue) "
                + "a2 61 61 82 01 f5 61 62 d8 18 43 a10102", direct: true)
    }

    @Test("Every other form falls back to full decoding, with its value or its error")
    func itemFallbacks() throws {
        let head = "\(Self.digestID) 07 \(Self.random) \(Self.randomValue) \(Self.elementIdentifier) 61 78"
        // A fifth key, kept in additionalEntries.
        try Self.expectSameItem("a5 \(head) \(Self.elementValue) 01 61 7a 02", direct: false)
        // An unknown key in place of elementValue: missing value.
        try Self.expectSameItem("a4 \(head) 61 7a 01", direct: false)
        // A repeated key.
        try Self.expectSameItem("a4 \(Self.digestID) 07 \(head)", direct: false)
        // digestID of another type, random of indefinite length, invalid UTF-8 in the identifier.
        try Self.expectSameItem("a4 \(Self.digestID) 61 37 \(Self.random) \(Self.randomValue) \(Self.elementIdentifier) 61 78 \(Self.elementValue) 01", direct: false)
        try Self.expectSameItem("a4 \(Self.digestID) 07 \(Self.random) 5f 48 0001020304050607 48 08090a0b0c0d0e0f ff \(Self.elementIdentifier) 61 78 \(Self.elementValue) 01", direct: false)
        try Self.expectSameItem("a4 \(Self.digestID) 07 \(Self.random) \(Self.randomValue) \(Self.elementIdentifier) 62 c328 \(Self.elementValue) 01", direct: false)
        // An indefinite-length map, trailing bytes, a cut value.
        try Self.expectSameItem("bf \(head) \(Self.elementValue) 01 ff", direct: false)
        try Self.expectSameItem("a4 \(head) \(Self.elementValue) 01 00", direct: false)
        try Self.expectSameItem("a4 \(head) \(Self.elementValue) 82 01", direct: false)
    }

    @Test("A value nested to the depth limit reads, one level more is the decoder's error")
    func itemDepth() throws {
        let head = "a4 \(Self.digestID) 07 \(Self.random) \(Self.randomValue) \(Self.elementIdentifier) 61 78 \(Self.elementValue)"
        let deepest = CBORLimits.defaultMaximumDepth - 1
        for depth in [deepest, deepest + 1] {
            let value = String(repeating: "81 ", count: depth) + "01"
            try Self.expectSameItem("\(head) \(value)", direct: depth == deepest)
        }
        let allowed = try Self.itemResults(try #require(Hex.decode("\(head) " + String(repeating: "81 ", count: deepest) + "01")))
        #expect((try? allowed.read.get()) != nil)
        let tooDeep = try Self.itemResults(try #require(Hex.decode("\(head) " + String(repeating: "81 ", count: deepest + 1) + "01")))
        #expect(throws: CBORError.self) { try tooDeep.read.get() }
    }

    /// The Annex D issuerAuth with `mso` as its payload, as MobileSecurityObjectBytes.
    static func issuerSigned(payload mso: CBOR) throws(CBORError) -> IssuerSigned {
        guard case .array(var parts) = try CBOR.decode(annexD("issuer_auth")) else { throw CBORError(.unexpectedType, "issuerAuth") }
        parts[2] = .byteString(CBOR.encodedCBOR(mso.encoded()).encoded())
        return try IssuerSigned(cbor: ["issuerAuth": .array(parts)], at: .root)
    }

    /// Expects that `mso` reads directly when `direct` and decodes in full otherwise, with the
    /// same value or error either way.
    static func expectSameMSO(_ mso: CBOR, direct: Bool, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect((MobileSecurityObject(reading: CBORBytes(mso.encoded())) != nil) == direct, sourceLocation: sourceLocation)
        let read = Result { () throws(CBORError) in try issuerSigned(payload: mso).mobileSecurityObjectBytes().value.cbor }
        let decoded = Result { () throws(CBORError) in
            try EmbeddedCBOR<MobileSecurityObject>(cbor: .encodedCBOR(mso.encoded()), at: CBORPath("issuerAuth").appending(index: 2)).value.cbor
        }
        expectSameOutcome(decoded, read, sourceLocation: sourceLocation)
    }

    @Test("The Annex D MSO reads as decoded, byte-exactly")
    func annexDMSO() throws {
        let mso = try CBOR.decode(annexD("mobile_security_object"))
        try Self.expectSameMSO(mso, direct: true)
        let read = try IssuerSigned(encoded: annexD("issuer_signed")).mobileSecurityObjectBytes()
        #expect(read.encoded() == annexD("mobile_security_object_bytes"))
        #expect(read.value.cbor == mso)
    }

    @Test("An MSO in another form falls back to full decoding, with its value or its error")
    func msoFallbacks() throws {
        let mso = try CBOR.decode(annexD("mobile_security_object"))
        // A key of a later edition, kept in additionalEntries.
        try Self.expectSameMSO(replacing("status", with: ["status_list": ["idx": 1]], in: mso), direct: false)
        // A repeated digest ID, a digest of another type, a missing key, a bad validity.
        var digests = try #require(mso.mapValue?[text: "valueDigests"]?.mapValue?[text: NameSpace.mDL]?.mapValue)
        digests.append(3, .byteString(Array(repeating: 0, count: 32)))
        try Self.expectSameMSO(replacing("valueDigests", with: [.textString(NameSpace.mDL): .map(digests)], in: mso), direct: false)
        try Self.expectSameMSO(replacing("valueDigests", with: [.textString(NameSpace.mDL): [0: "digest"]], in: mso), direct: false)
        try Self.expectSameMSO(replacing("valueDigests", with: [.textString(NameSpace.mDL): [-1: .byteString([1])]], in: mso), direct: false)
        try Self.expectSameMSO(removing("docType", from: mso), direct: false)
        try Self.expectSameMSO(replacing("validityInfo", with: ["signed": 1], in: mso), direct: false)
        try Self.expectSameMSO(replacing("deviceKeyInfo", with: [:], in: mso), direct: false)
        // A name space twice.
        guard case .map(var twice) = try #require(mso.mapValue?[text: "valueDigests"]) else { return }
        twice.append(.textString(NameSpace.mDL), [0: .byteString(Array(repeating: 0, count: 32))])
        try Self.expectSameMSO(replacing("valueDigests", with: .map(twice), in: mso), direct: false)
    }
}

@Suite("DeviceResponse read from its bytes equals the decoded one")
struct DeviceResponseReadingTests {
    /// Expects that `bytes` read directly when `direct` and decode in full otherwise, with the
    /// same value or error either way.
    static func expectSameResponse(_ bytes: [UInt8], direct: Bool, limits: CBORLimits = .default, sourceLocation: SourceLocation = #_sourceLocation) {
        let read = CBORHeadReader.read(CBORBytes(bytes), limits: limits, DeviceResponse.read)
        #expect((read != nil) == direct, sourceLocation: sourceLocation)
        let viaEncoded = Result { () throws(CBORError) in try DeviceResponse(encoded: bytes, limits: limits).cbor }
        let decoded = Result { () throws(CBORError) in try DeviceResponse(cbor: CBOR.decode(bytes, limits: limits), at: .root).cbor }
        expectSameOutcome(decoded, viaEncoded, sourceLocation: sourceLocation)
        if let read, case .success(let value) = decoded {
            #expect(read.cbor == value, sourceLocation: sourceLocation)
        }
    }

    @Test("The Annex D response reads directly, byte-exactly, its items' digests over the received bytes")
    func annexDResponse() throws {
        let bytes = annexD("device_response")
        Self.expectSameResponse(bytes, direct: true)
        let response = try DeviceResponse(encoded: bytes)
        #expect(response.encoded() == bytes)
        let items = try #require(response.documents?.first?.issuerSigned.nameSpaces?[NameSpace.mDL])
        let decoded = try DeviceResponse(cbor: CBOR.decode(bytes), at: .root)
        let decodedItems = try #require(decoded.documents?.first?.issuerSigned.nameSpaces?[NameSpace.mDL])
        #expect(items.map(\.taggedBytes) == decodedItems.map(\.taggedBytes))
        // Each tagged item is a view of the response, found where it lies.
        for item in items {
            let tagged = Array(item.taggedBytes)
            #expect(bytes.indices.contains { bytes[$0...].starts(with: tagged) })
        }
    }

    @Test("Other forms decode in full, with the same value or error")
    func fallbacks() throws {
        let response = try CBOR.decode(annexD("device_response"))
        // A key the CDDL does not have, kept in additionalEntries; a missing status.
        Self.expectSameResponse(replacing("extension", with: 1, in: response).encoded(), direct: false)
        Self.expectSameResponse(removing("status", from: response).encoded(), direct: false)
        // A document key repeated; a document without deviceSigned.
        guard case .map(var map) = response, case .array(let documents) = map[text: "documents"], case .map(let document) = documents[0] else {
            Issue.record("no document")
            return
        }
        var twice = document
        twice.append("docType", "again")
        map[text: "documents"] = [.map(twice)]
        Self.expectSameResponse(CBOR.map(map).encoded(), direct: false)
        map[text: "documents"] = [removing("deviceSigned", from: .map(document))]
        Self.expectSameResponse(CBOR.map(map).encoded(), direct: false)
        // An item that is not an IssuerSignedItemBytes.
        var issuerSigned = try #require(document[text: "issuerSigned"]?.mapValue)
        issuerSigned[text: "nameSpaces"] = [.textString(NameSpace.mDL): [CBOR.encodedCBOR([UInt8]([0xa0]))]]
        map[text: "documents"] = [replacing("issuerSigned", with: .map(issuerSigned), in: .map(document))]
        Self.expectSameResponse(CBOR.map(map).encoded(), direct: false)
        // Trailing bytes, a cut response.
        let bytes = annexD("device_response")
        Self.expectSameResponse(bytes + [0], direct: false)
        Self.expectSameResponse(Array(bytes.dropLast()), direct: false)
    }

    @Test("Limits apply as they do to decoding in full")
    func limits() {
        let bytes = annexD("device_response")
        // Seven levels hold the read form; six do not, and then decoding in full says why.
        let shallow = CBORLimits(maximumDepth: 6, maximumItemCount: CBORLimits.defaultMaximumItemCount, maximumInputSize: CBORLimits.defaultMaximumInputSize)
        #expect(throws: CBORError.self) { try DeviceResponse(encoded: bytes, limits: shallow) }
        // The item limit at the response's item count, and one below it.
        let items = (try? CBOR.decode(bytes)).map(Self.itemCount) ?? 0
        for count in [items, items - 1] {
            let limits = CBORLimits(maximumDepth: CBORLimits.defaultMaximumDepth, maximumItemCount: count, maximumInputSize: CBORLimits.defaultMaximumInputSize)
            Self.expectSameResponse(bytes, direct: count == items, limits: limits)
        }
        let small = CBORLimits(maximumDepth: CBORLimits.defaultMaximumDepth, maximumItemCount: CBORLimits.defaultMaximumItemCount, maximumInputSize: bytes.count - 1)
        Self.expectSameResponse(bytes, direct: false, limits: small)
    }

    /// The data items of `item` as the decoder counts them (embedded items' content excluded).
    static func itemCount(_ item: CBOR) -> Int {
        switch item {
        case .array(let elements): return 1 + elements.map(itemCount).reduce(0, +)
        case .map(let map): return 1 + map.entries.map { itemCount($0.key) + itemCount($0.value) }.reduce(0, +)
        case .tagged(_, let content): return 1 + itemCount(content)
        default: return 1
        }
    }
}
