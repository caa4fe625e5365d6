import MdocCBOR
import MdocModel
import Testing

@Suite("ISO/IEC 18013-5 Annex D.2.1: driving privileges")
struct D21DrivingPrivilegesTests {
    @Test("D.2.1 driving_privileges re-encodes byte-exactly and is the value of digestID 9")
    func drivingPrivileges() throws {
        let bytes = AnnexD.bytes("driving_privileges")
        let value = try CBOR.decode(bytes)
        #expect(value.encoded() == bytes)
        let privileges = try #require(value.arrayValue)
        #expect(privileges.count == 2)
        #expect(privileges.first?.mapValue?[text: "vehicle_category_code"] == "A")
        #expect(privileges.first?.mapValue?[text: "issue_date"] == .tagged(CBOR.Tag.fullDateString, "2018-08-09"))
        #expect(privileges.last?.mapValue?[text: "vehicle_category_code"] == "B")

        let issuerSigned = try IssuerSigned(encoded: AnnexD.bytes("issuer_signed"))
        let item = try #require(issuerSigned.nameSpaces?[AnnexD.nameSpace]?.first { $0.value.digestID == 9 })
        #expect(item.value.elementIdentifier == "driving_privileges")
        #expect(item.value.elementValue == value)
    }
}
