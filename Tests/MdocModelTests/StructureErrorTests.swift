import MdocCBOR
import MdocCOSE
import MdocModel
import Testing

@Suite("Shape errors and optional parts of the smaller structures")
struct StructureErrorTests {
    @Test("Security needs two elements and an integer cipher suite")
    func security() throws {
        let key = try CBOR.decode(annexD("e_device_key_bytes"))
        expectCBORError(.invalidValue, at: "top level") { () throws(CBORError) in
            _ = try Security(cbor: [1], at: .root)
        }
        expectCBORError(.unexpectedType, at: "[0]") { () throws(CBORError) in
            _ = try Security(cbor: ["1", key], at: .root)
        }
        let security = try Security(cbor: [2, key], at: .root)
        #expect(security.cipherSuiteIdentifier.rawValue == 2)
        #expect(security.cbor == [2, key])
    }

    @Test("OriginInfo needs cat, type and details")
    func originInfo() throws {
        expectCBORError(.missingValue, at: "top level") { () throws(CBORError) in
            _ = try OriginInfo(cbor: ["cat": 0, "type": 1], at: .root)
        }
        expectCBORError(.unexpectedType, at: "cat") { () throws(CBORError) in
            _ = try OriginInfo(cbor: ["cat": "delivery", "type": 1, "details": [:]], at: .root)
        }
        let info = OriginInfo(cat: 0, type: 1, details: ["baseUrl": "https://a.example"])
        #expect(try OriginInfo(cbor: info.cbor, at: .root) == info)
        #expect(OriginInfo(cat: 0, type: 2, details: 5).baseURL == nil)
    }

    @Test("IssuerSigned without nameSpaces; a detached issuerAuth payload has no MSO")
    func issuerSignedWithoutNameSpaces() throws {
        let issuerAuth = try CBOR.decode(annexD("issuer_auth"))
        let issuerSigned = try IssuerSigned(cbor: ["issuerAuth": issuerAuth], at: .root)
        #expect(issuerSigned.nameSpaces == nil)
        #expect(issuerSigned.cbor == ["issuerAuth": issuerAuth])
        guard case .array(var parts) = issuerAuth else {
            Issue.record("issuerAuth is not an array")
            return
        }
        parts[2] = .null
        let detached = try IssuerSigned(cbor: ["issuerAuth": .array(parts)], at: .root)
        expectCBORError(.missingValue, at: "documents[0].issuerSigned.issuerAuth[2]") { () throws(CBORError) in
            _ = try detached.mobileSecurityObjectBytes(at: CBORPath(components: [.key("documents"), .index(0), .key("issuerSigned")]))
        }
        parts[2] = .byteString([0xa0])
        let notTagged = try IssuerSigned(cbor: ["issuerAuth": .array(parts)], at: .root)
        expectCBORError(.unexpectedType, at: "issuerAuth[2]") { () throws(CBORError) in
            _ = try notTagged.mobileSecurityObjectBytes()
        }
        parts[2] = .byteString([0xd8, 0x18])
        let truncated = try IssuerSigned(cbor: ["issuerAuth": .array(parts)], at: .root)
        do {
            _ = try truncated.mobileSecurityObjectBytes()
            Issue.record("a truncated payload was accepted")
        } catch {
            #expect(error.path.description.hasPrefix("issuerAuth[2]"))
        }
        expectCBORError(.missingValue, at: "top level") { () throws(CBORError) in
            _ = try IssuerSigned(cbor: ["nameSpaces": [:]], at: .root)
        }
    }

    @Test("KeyAuthorizations element types are checked")
    func keyAuthorizations() throws {
        expectCBORError(.unexpectedType, at: "nameSpaces[1]") { () throws(CBORError) in
            _ = try KeyAuthorizations(cbor: ["nameSpaces": ["a", 1]], at: .root)
        }
        expectCBORError(.unexpectedType, at: "dataElements.ns[0]") { () throws(CBORError) in
            _ = try KeyAuthorizations(cbor: ["dataElements": ["ns": [true]]], at: .root)
        }
        let empty = try KeyAuthorizations(cbor: [:], at: .root)
        #expect(empty.nameSpaces == nil && empty.dataElements == nil && empty.cbor == [:])
    }

    @Test("SessionData may hold data and status together, or neither")
    func sessionDataForms() throws {
        let both = try SessionData(cbor: ["data": .byteString([1]), "status": 20], at: .root)
        #expect(both.data == [1] && both.status == .sessionTermination)
        #expect(both.cbor == ["data": .byteString([1]), "status": 20])
        let neither = try SessionData(cbor: [:], at: .root)
        #expect(neither.data == nil && neither.status == nil)
        expectCBORError(.unexpectedType, at: "top level") { () throws(CBORError) in
            _ = try SessionData(cbor: [.byteString([1])], at: .root)
        }
    }

    @Test("ReaderAuthentication and DeviceAuthentication check their shape")
    func authenticationShapes() throws {
        let transcript = try CBOR.decode(annexD("session_transcript"))
        expectCBORError(.invalidValue, at: "top level") { () throws(CBORError) in
            _ = try ReaderAuthentication(cbor: ["ReaderAuthentication", transcript], at: .root)
        }
        expectCBORError(.invalidValue, at: "top level") { () throws(CBORError) in
            _ = try DeviceAuthentication(cbor: ["DeviceAuthentication", transcript, "doc"], at: .root)
        }
        expectCBORError(.invalidValue, at: "[0]") { () throws(CBORError) in
            _ = try DeviceAuthentication(cbor: ["ReaderAuthentication", transcript, "doc", .encodedCBOR([0xa0])], at: .root)
        }
        expectCBORError(.unexpectedType, at: "[2]") { () throws(CBORError) in
            _ = try DeviceAuthentication(cbor: ["DeviceAuthentication", transcript, 1, .encodedCBOR([0xa0])], at: .root)
        }
    }

    @Test("text-keyed maps reject a repeated key built in code")
    func repeatedTextKey() {
        var elements = CBORMap()
        elements.append("family_name", true)
        elements.append("family_name", false)
        expectCBORError(.duplicateMapKey, at: #"nameSpaces["org.iso.18013.5.1"].family_name"#) { () throws(CBORError) in
            _ = try ItemsRequest(cbor: ["docType": "x", "nameSpaces": ["org.iso.18013.5.1": .map(elements)]], at: .root)
        }
    }
}
