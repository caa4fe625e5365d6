import MdocCBOR
import MdocTestSupport
import Testing

/// Every CBOR vector of ISO/IEC 18013-5 Annex D decodes and re-encodes byte for byte, and so does
/// every item embedded in it (tag 24).
struct AnnexDVectorTests {
    static let cborVectors = [
        "device_engagement", "device_engagement_nfc", "e_device_key_bytes", "e_reader_key_bytes",
        "session_transcript", "session_transcript_bytes", "session_establishment", "session_data_response",
        "session_termination", "device_request", "items_request", "items_request_bytes", "reader_auth",
        "reader_authentication_bytes", "reader_auth_sig_structure", "device_response", "issuer_signed",
        "issuer_auth", "mobile_security_object", "mobile_security_object_bytes", "issuer_auth_sig_structure",
        "driving_privileges", "device_signed", "device_auth", "device_authentication_bytes",
        "device_auth_mac_structure",
    ]

    @Test(arguments: cborVectors)
    func decodesAndReencodesExactly(_ name: String) throws {
        let input = Vectors.annexD(name)
        let decoded = try CBOR.decode(input)
        #expect(decoded.encoded() == input)
        var pending = [decoded]
        var embeddedCount = 0
        while let item = pending.popLast() {
            switch item {
            case .array(let items): pending += items
            case .map(let map): pending += map.entries.flatMap { [$0.key, $0.value] }
            case .tagged(24, .byteString(let content)):
                let inner = try CBOR.decode(content)
                #expect(inner.encoded() == content)
                embeddedCount += 1
                pending.append(inner)
            case .tagged(_, let content): pending.append(content)
            default: break
            }
        }
        if name.hasSuffix("_bytes") {
            #expect(embeddedCount > 0)
        }
    }

    @Test func deviceResponseInDiagnosticNotation() throws {
        let response = try CBOR.decode(Vectors.annexD("device_response"))
        let text = response.diagnosticNotation(expandEmbedded: true, indent: true)
        #expect(text.hasPrefix("{\n  \"version\": \"1.0\",\n  \"documents\": [\n"))
        #expect(text.contains("\"elementIdentifier\": \"family_name\""))
        #expect(text.contains("1004(\"2019-10-20\")"))
        #expect(text.contains("\"deviceMac\": [\n"))
        // The MSO sits in the COSE payload, a plain byte string holding 24(<<MSO>>).
        let mso = try CBOR.decode(Vectors.annexD("mobile_security_object_bytes"))
        #expect(mso.diagnosticNotation(expandEmbedded: true).contains("\"signed\": 0(\"2020-10-01T13:30:02Z\")"))
        #expect(try CBOR.decode(Vectors.annexD("session_termination")).diagnosticNotation() == "{\"status\": 20}")
    }

    @Test func drivingPrivilegesValue() throws {
        let privileges = try CBOR.decode(Vectors.annexD("driving_privileges"))
        let first = try #require(privileges.arrayValue?.first?.mapValue)
        #expect(first[text: "vehicle_category_code"] == "A")
        #expect(first[text: "issue_date"] == .tagged(1004, "2018-08-09"))
    }
}
