import Foundation
import MdocCBOR
import MdocCOSE
import MdocModel
import Testing

@Suite("DeviceResponse, IssuerSigned, DeviceSigned and DeviceAuthentication (ISO/IEC 18013-5 8.3.2.1.2.2, 9.1.3)")
struct DeviceResponseTests {
    static let disclosed: [(UInt64, String)] = [
        (0, "family_name"), (3, "issue_date"), (4, "expiry_date"),
        (7, "document_number"), (8, "portrait"), (9, "driving_privileges"),
    ]

    @Test("D.4.1.2 DeviceResponse decodes and re-encodes byte-exactly")
    func deviceResponse() throws {
        let bytes = annexD("device_response")
        let response = try DeviceResponse(encoded: bytes)
        #expect(response.encoded() == bytes)
        #expect(response.version == "1.0")
        #expect(response.status == .ok)
        #expect(response.documentErrors == nil)
        let documents = try #require(response.documents)
        #expect(documents.count == 1)
        #expect(documents[0].docType == DocType.mDL)
        #expect(documents[0].errors == nil)
        #expect(documents[0].issuerSigned.encoded() == annexD("issuer_signed"))
        #expect(documents[0].deviceSigned.encoded() == annexD("device_signed"))
    }

    @Test("D.4.1.2 the salts, the value digests and the IssuerAuth payload are views of the received bytes")
    func decodedBytesAreViewsOfTheInput() throws {
        let bytes = annexD("device_response")
        let response = try DeviceResponse(encoded: bytes)
        let issuerSigned = try #require(response.documents?.first).issuerSigned
        let items = try #require(issuerSigned.nameSpaces?[NameSpace.mDL])
        let payload = try #require(issuerSigned.issuerAuth.payload)
        let mso = try issuerSigned.mobileSecurityObjectBytes().value
        let digests = try #require(mso.valueDigests[NameSpace.mDL])
        bytes.withUnsafeBytes { input in
            func isView(_ view: CBORBytes) -> Bool {
                view.withUnsafeBytes { $0.baseAddress! >= input.baseAddress! && $0.baseAddress! + $0.count <= input.baseAddress! + input.count }
            }
            #expect(items.allSatisfy { isView($0.value.random) })
            #expect(isView(payload))
            #expect(digests.count == 13 && digests.values.allSatisfy(isView))
        }
        #expect(response.encoded() == bytes)
    }

    @Test("IssuerSigned: six items with the Annex D digest IDs and values")
    func issuerSigned() throws {
        let bytes = annexD("issuer_signed")
        let issuerSigned = try IssuerSigned(encoded: bytes)
        #expect(issuerSigned.encoded() == bytes)
        #expect(issuerSigned.issuerAuth.encoded() == annexD("issuer_auth"))
        let nameSpaces = try #require(issuerSigned.nameSpaces)
        #expect(nameSpaces.keys == [NameSpace.mDL])
        let items = try #require(nameSpaces[NameSpace.mDL])
        #expect(items.map(\.value.digestID) == Self.disclosed.map(\.0))
        #expect(items.map(\.value.elementIdentifier) == Self.disclosed.map(\.1))
        for item in items {
            #expect(item.value.encoded() == item.bytes, "CDDL order re-encodes \(item.value.elementIdentifier) exactly")
            #expect(item.value.random.count >= 16)
        }
        #expect(items[0].value.elementValue == "Doe")
        #expect(items[3].value.elementValue == "123456789")
        #expect(try FullDate(cbor: items[1].value.elementValue, at: .root) == FullDate(year: 2019, month: 10, day: 20))
        #expect(try FullDate(cbor: items[2].value.elementValue, at: .root).description == "2024-10-20")
        #expect(items[4].value.elementValue == .byteString(annexD("portrait_jpeg")))
        #expect(items[5].value.elementValue.encoded() == annexD("driving_privileges"))
    }

    @Test("MobileSecurityObject: digests, device key and validity")
    func mobileSecurityObject() throws {
        let bytes = annexD("mobile_security_object")
        let mso = try MobileSecurityObject(encoded: bytes)
        #expect(mso.encoded() == bytes)
        #expect(mso.version == "1.0")
        #expect(mso.digestAlgorithm == "SHA-256")
        #expect(mso.docType == DocType.mDL)
        #expect(mso.valueDigests.keys == [NameSpace.mDL, "org.iso.18013.5.1.US"])
        #expect(mso.valueDigests[NameSpace.mDL]?.keys == Array(0...12))
        #expect(mso.valueDigests["org.iso.18013.5.1.US"]?.keys == Array(0...3))
        #expect(mso.valueDigests.values.allSatisfy { $0.values.allSatisfy { $0.count == 32 } })
        #expect(mso.deviceKeyInfo.deviceKey.x == annexD("sDeviceKey_public_x"))
        #expect(mso.deviceKeyInfo.deviceKey.y == annexD("sDeviceKey_public_y"))
        #expect(mso.deviceKeyInfo.keyAuthorizations == nil && mso.deviceKeyInfo.keyInfo == nil)
        let validity = mso.validityInfo
        #expect(validity.signed.text == "2020-10-01T13:30:02Z")
        #expect(validity.validFrom.text == "2020-10-01T13:30:02Z")
        #expect(validity.validUntil.text == "2021-10-01T13:30:02Z")
        #expect(validity.signed.date.timeIntervalSince1970 == 1_601_559_002)
        #expect(validity.validUntil.date.timeIntervalSince1970 == 1_633_095_002)
        #expect(validity.expectedUpdate == nil)

        let tagged = try EmbeddedCBOR<MobileSecurityObject>(encoded: annexD("mobile_security_object_bytes"))
        #expect(tagged.bytes == bytes)
        let fromIssuerAuth = try IssuerSigned(encoded: annexD("issuer_signed")).mobileSecurityObjectBytes()
        #expect(fromIssuerAuth.encoded() == annexD("mobile_security_object_bytes"))
    }

    @Test("a digest ID that appears twice is rejected with its path")
    func duplicateDigestID() throws {
        let mso = try CBOR.decode(annexD("mobile_security_object"))
        guard case .map(var digests) = try mso.map(at: .root)[text: "valueDigests"]?.map(at: .root)[text: NameSpace.mDL] else {
            Issue.record("no digests")
            return
        }
        digests.append(3, .byteString(Array(repeating: 0, count: 32)))
        var valueDigests = try #require(mso.mapValue?[text: "valueDigests"]?.mapValue)
        valueDigests[text: NameSpace.mDL] = .map(digests)
        expectCBORError(.duplicateMapKey, at: #"valueDigests["org.iso.18013.5.1"][3]"#) { () throws(CBORError) in
            _ = try MobileSecurityObject(cbor: replacing("valueDigests", with: .map(valueDigests), in: mso), at: .root)
        }
    }

    @Test("MSO errors name their path")
    func msoErrors() throws {
        let mso = try CBOR.decode(annexD("mobile_security_object"))
        expectCBORError(.missingValue, at: "top level") { () throws(CBORError) in
            _ = try MobileSecurityObject(cbor: removing("validityInfo", from: mso), at: .root)
        }
        expectCBORError(.unexpectedType, at: "validityInfo.validUntil") { () throws(CBORError) in
            _ = try MobileSecurityObject(cbor: replacing("validityInfo", with: ["signed": .tagged(0, "2020-10-01T13:30:02Z"), "validFrom": .tagged(0, "2020-10-01T13:30:02Z"), "validUntil": "2021-10-01T13:30:02Z"], in: mso), at: .root)
        }
        expectCBORError(.invalidValue, at: "validityInfo.validUntil<tag 0>") { () throws(CBORError) in
            _ = try MobileSecurityObject(cbor: replacing("validityInfo", with: ["signed": .tagged(0, "2020-10-01T13:30:02Z"), "validFrom": .tagged(0, "2020-10-01T13:30:02Z"), "validUntil": .tagged(0, "2021-13-01T13:30:02Z")], in: mso), at: .root)
        }
        expectCBORError(.unexpectedType, at: "valueDigests[\"org.iso.18013.5.1\"][0]") { () throws(CBORError) in
            _ = try MobileSecurityObject(cbor: replacing("valueDigests", with: ["org.iso.18013.5.1": [0: "digest"]], in: mso), at: .root)
        }
        expectCBORError(.unexpectedType, at: "valueDigests[\"org.iso.18013.5.1\"][0]") { () throws(CBORError) in
            _ = try MobileSecurityObject(cbor: replacing("valueDigests", with: ["org.iso.18013.5.1": [-1: .byteString([1])]], in: mso), at: .root)
        }
    }

    @Test("KeyAuthorizations, keyInfo and expectedUpdate round-trip")
    func deviceKeyInfoOptionalParts() throws {
        let mso = try MobileSecurityObject(encoded: annexD("mobile_security_object"))
        var changed = mso
        changed.deviceKeyInfo.keyAuthorizations = KeyAuthorizations(nameSpaces: [NameSpace.aamva], dataElements: [NameSpace.mDL: ["family_name"]])
        changed.deviceKeyInfo.keyInfo = CBORMap([.init(key: 1, value: "x")])
        changed.validityInfo.expectedUpdate = try TDate(text: "2021-06-01T00:00:00Z")
        let reread = try MobileSecurityObject(encoded: changed.encoded())
        #expect(reread.deviceKeyInfo.keyAuthorizations == changed.deviceKeyInfo.keyAuthorizations)
        #expect(reread.deviceKeyInfo.keyInfo?[int: 1] == "x")
        #expect(reread.validityInfo == changed.validityInfo)
        #expect(reread.encoded() == changed.encoded())
    }

    @Test("DeviceSigned with deviceMac; DeviceAuthenticationBytes equal Annex D")
    func deviceSigned() throws {
        let bytes = annexD("device_signed")
        let deviceSigned = try DeviceSigned(encoded: bytes)
        #expect(deviceSigned.encoded() == bytes)
        #expect(deviceSigned.nameSpaces.bytes == [0xa0])
        #expect(deviceSigned.nameSpaces.value.nameSpaces.isEmpty)
        #expect(deviceSigned.deviceAuth.encoded() == annexD("device_auth"))
        guard case .deviceMac(let mac) = deviceSigned.deviceAuth else {
            Issue.record("expected deviceMac")
            return
        }
        #expect(mac.tag == annexD("device_mac_tag"))
        #expect(mac.payload == nil)

        let transcript = try SessionTranscript(encoded: annexD("session_transcript"))
        let authentication = DeviceAuthentication(sessionTranscript: transcript, docType: DocType.mDL, deviceNameSpacesBytes: deviceSigned.nameSpaces)
        #expect(authentication.bytes.encoded() == annexD("device_authentication_bytes"))
        let decoded = try EmbeddedCBOR<DeviceAuthentication>(encoded: annexD("device_authentication_bytes"))
        #expect(decoded.value.docType == DocType.mDL)
        #expect(decoded.value.deviceNameSpacesBytes.bytes == [0xa0])
    }

    @Test("DeviceAuth needs exactly one of deviceSignature and deviceMac")
    func deviceAuthErrors() throws {
        let mac = try CBOR.decode(annexD("device_auth")).map(at: .root)[text: "deviceMac"] ?? .null
        let signature = try CBOR.decode(annexD("issuer_auth"))
        let viaSignature = try DeviceAuth(cbor: ["deviceSignature": signature], at: .root)
        guard case .deviceSignature = viaSignature else {
            Issue.record("expected deviceSignature")
            return
        }
        #expect(viaSignature.cbor == ["deviceSignature": signature])
        expectCBORError(.missingValue, at: "deviceAuth") { () throws(CBORError) in
            _ = try DeviceSigned(cbor: ["nameSpaces": .encodedCBOR([0xa0]), "deviceAuth": [:]], at: .root)
        }
        expectCBORError(.invalidValue, at: "top level") { () throws(CBORError) in
            _ = try DeviceAuth(cbor: ["deviceSignature": signature, "deviceMac": mac], at: .root)
        }
    }

    @Test("DeviceNameSpaces with items keep their order")
    func deviceNameSpaces() throws {
        let cbor: CBOR = ["ns": ["b": 1, "a": "x"], "ms": ["c": true]]
        let nameSpaces = try DeviceNameSpaces(cbor: cbor, at: .root)
        #expect(nameSpaces.nameSpaces.keys == ["ns", "ms"])
        #expect(nameSpaces.nameSpaces["ns"]?.keys == ["b", "a"])
        #expect(nameSpaces.cbor == cbor)
        expectCBORError(.unexpectedType, at: "ns") { () throws(CBORError) in
            _ = try DeviceNameSpaces(cbor: ["ns": [1, 2]], at: .root)
        }
    }

    @Test("errors inside a document name the full path")
    func responseErrorPaths() throws {
        var response = try CBOR.decode(annexD("device_response")).map(at: .root)
        var documents = try #require(response[text: "documents"]?.arrayValue)
        var document = try documents[0].map(at: .root)
        var issuerSigned = try #require(document[text: "issuerSigned"]?.mapValue)
        var nameSpaces = try #require(issuerSigned[text: "nameSpaces"]?.mapValue)
        var items = try #require(nameSpaces[text: NameSpace.mDL]?.arrayValue)
        let item = try IssuerSignedItem(encoded: items[3].embeddedBytes(at: .root))
        items[3] = .encodedCBOR(removing("elementValue", from: item.cbor).encoded())
        nameSpaces[text: NameSpace.mDL] = .array(items)
        issuerSigned[text: "nameSpaces"] = .map(nameSpaces)
        document[text: "issuerSigned"] = .map(issuerSigned)
        documents[0] = .map(document)
        response[text: "documents"] = .array(documents)
        expectCBORError(.missingValue, at: #"documents[0].issuerSigned.nameSpaces["org.iso.18013.5.1"][3]<<>>"#) { () throws(CBORError) in
            _ = try DeviceResponse(cbor: .map(response), at: .root)
        }
        items[3] = .encodedCBOR(replacing("digestID", with: -3, in: item.cbor).encoded())
        nameSpaces[text: NameSpace.mDL] = .array(items)
        issuerSigned[text: "nameSpaces"] = .map(nameSpaces)
        document[text: "issuerSigned"] = .map(issuerSigned)
        documents[0] = .map(document)
        response[text: "documents"] = .array(documents)
        expectCBORError(.unexpectedType, at: #"documents[0].issuerSigned.nameSpaces["org.iso.18013.5.1"][3]<<>>.digestID"#) { () throws(CBORError) in
            _ = try DeviceResponse(cbor: .map(response), at: .root)
        }
        let plain = try CBOR.decode(annexD("device_response"))
        let plainDocument = try #require(plain.mapValue?[text: "documents"]?.arrayValue?.first)
        expectCBORError(.missingValue, at: "top level") { () throws(CBORError) in
            _ = try DeviceResponse(cbor: removing("status", from: plain), at: .root)
        }
        expectCBORError(.unexpectedType, at: "status") { () throws(CBORError) in
            _ = try DeviceResponse(cbor: replacing("status", with: "0", in: plain), at: .root)
        }
        expectCBORError(.missingValue, at: "documents[0]") { () throws(CBORError) in
            _ = try DeviceResponse(cbor: replacing("documents", with: [removing("deviceSigned", from: plainDocument)], in: plain), at: .root)
        }
    }

    @Test("status codes it does not name are kept; document errors and element errors round-trip")
    func statusAndErrors() throws {
        let cbor: CBOR = [
            "version": "1.0",
            "documentErrors": [["eu.europa.ec.eudi.pid.1": 0]],
            "status": 13,
        ]
        let response = try DeviceResponse(cbor: cbor, at: .root)
        #expect(response.status.rawValue == 13)
        #expect(response.status.description == "unknown status 13")
        #expect(response.documentErrors?.first?.errors[DocType.eudiPID] == .dataNotReturned)
        #expect(response.cbor == cbor)
        #expect(DeviceResponse.Status.generalError.rawValue == 10)
        #expect(DeviceResponse.Status.cborDecodingError.rawValue == 11)
        #expect(DeviceResponse.Status.cborValidationError.rawValue == 12)

        let errors = try Errors(cbor: ["org.iso.18013.5.1": ["portrait": 0, "height": -5]], at: .root)
        #expect(errors.nameSpaces[NameSpace.mDL]?["height"]?.rawValue == -5)
        #expect(errors.cbor == ["org.iso.18013.5.1": ["portrait": 0, "height": -5]])
        expectCBORError(.unexpectedType, at: #"["org.iso.18013.5.1"].portrait"#) { () throws(CBORError) in
            _ = try Errors(cbor: ["org.iso.18013.5.1": ["portrait": "none"]], at: .root)
        }
    }

    @Test("D.2.1 driving_privileges: full-dates decode and re-encode exactly")
    func drivingPrivileges() throws {
        let bytes = annexD("driving_privileges")
        let privileges = try CBOR.decode(bytes).array(at: .root)
        #expect(privileges.count == 2)
        let expected = [("A", "2018-08-09", "2024-10-20"), ("B", "2017-02-23", "2024-10-20")]
        var rebuilt: [CBOR] = []
        for (index, privilege) in privileges.enumerated() {
            let map = try privilege.map(at: .root)
            #expect(map[text: "vehicle_category_code"] == .textString(expected[index].0))
            let issue = try FullDate(cbor: map[text: "issue_date"] ?? .null, at: .root)
            let expiry = try FullDate(cbor: map[text: "expiry_date"] ?? .null, at: .root)
            #expect(issue.description == expected[index].1)
            #expect(expiry.description == expected[index].2)
            rebuilt.append(["vehicle_category_code": .textString(expected[index].0), "issue_date": issue.cbor, "expiry_date": expiry.cbor])
        }
        #expect(CBOR.array(rebuilt).encoded() == bytes)
    }
}
