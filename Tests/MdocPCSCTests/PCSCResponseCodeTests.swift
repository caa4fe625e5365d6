import MdocPCSC
import Testing

@Suite struct PCSCResponseCodeTests {
    @Test func namesAndValues() {
        #expect(PCSCResponseCode.noService.description == "SCARD_E_NO_SERVICE (0x8010001D)")
        #expect(PCSCResponseCode.removedCard.name == "SCARD_W_REMOVED_CARD")
        #expect(PCSCResponseCode.success.description == "SCARD_S_SUCCESS (0x00000000)")
        #expect(PCSCResponseCode(rawValue: 0x8010_0022).name == nil)
        #expect(PCSCResponseCode(rawValue: 0x8010_0022).description == "0x80100022")
    }
}
