import MdocCBOR
import MdocModel
import MdocSession
import MdocTestSupport
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `VerifiedDocuments` exists only for a report the verifier made, unchanged, that verified.
@Suite struct VerifiedDocumentsTests {
    @Test("a report made by hand, or changed after verification, gives no verified documents")
    func onlyFromTheVerifier() throws {
        var report = VerificationReport(version: "1.0", status: 0, time: .now, documents: [], documentErrors: [])
        #expect(report.verifiedDocuments == nil)
        var document = DocumentReport(index: 0, docType: DocType.mDL)
        document.elements.append(DisclosedElement(
            nameSpace: NameSpace.mDL, identifier: "age_over_18", value: .boolean(true), source: .issuerSigned, digestID: 1,
            issuerAuthenticated: true, verified: true))
        report.documents = [document]
        #expect(report.verifiedDocuments == nil)
    }

    @Test("a driving privilege with a malformed date is not read")
    func drivingPrivilege() {
        var map = CBORMap()
        map.append(.textString("vehicle_category_code"), .textString("B"))
        #expect(DrivingPrivilege(cbor: .map(map))?.vehicleCategoryCode.value == "B")
        map.append(.textString("issue_date"), .tagged(1004, .textString("2020-13-01")))
        #expect(DrivingPrivilege(cbor: .map(map)) == nil)
    }

    @Test("peer text is escaped when shown and kept as received")
    func untrustedString() {
        let text = UntrustedString("Doe\u{1B}[2J")
        #expect(text.value == "Doe\u{1B}[2J")
        #expect("\(text)" == "Doe\\u{1B}[2J")
    }
}
