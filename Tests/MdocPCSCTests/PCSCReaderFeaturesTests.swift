@testable import MdocPCSC
import Testing

/// PC/SC part 10's feature list and TLV properties, as vsmartcard's vpcd (since 0.9) and libccid
/// write them.
@Suite struct PCSCReaderFeaturesTests {
    @Test func controlCodeOfAFeature() {
        // FEATURE_VERIFY_PIN_DIRECT (0x06), then FEATURE_GET_TLV_PROPERTIES (0x12) at
        // SCARD_CTL_CODE(0x330000 + 0x12), big-endian.
        let features: [UInt8] = [0x06, 4, 0x42, 0x33, 0x00, 0x06, 0x12, 4, 0x42, 0x33, 0x00, 0x12]
        #expect(PCSCReaderFeatures.controlCode(of: PCSCReaderFeatures.getTLVProperties, in: features) == 0x4233_0012)
        #expect(PCSCReaderFeatures.controlCode(of: 0x0A, in: features) == nil)
    }

    @Test func malformedFeatureListsGiveNothing() {
        #expect(PCSCReaderFeatures.controlCode(of: 0x12, in: [0x12, 3, 0x42, 0x33, 0x00]) == nil)
        #expect(PCSCReaderFeatures.controlCode(of: 0x12, in: [0x12, 4, 0x42, 0x33, 0x00]) == nil)
        #expect(PCSCReaderFeatures.controlCode(of: 0x12, in: [0x12]) == nil)
    }

    @Test func maximumAPDUDataSizeProperty() {
        // wLcdLayout (1, 2 octets), then dwMaxAPDUDataSize 65536, little-endian.
        let properties: [UInt8] = [0x01, 2, 0x00, 0x00, 0x0A, 4, 0x00, 0x00, 0x01, 0x00]
        #expect(PCSCReaderFeatures.property(PCSCReaderFeatures.maximumAPDUDataSizeTag, in: properties) == 65536)
        #expect(PCSCReaderFeatures.property(PCSCReaderFeatures.maximumAPDUDataSizeTag, in: [0x0A, 4, 0, 0, 0, 0]) == 0)
        #expect(PCSCReaderFeatures.property(PCSCReaderFeatures.maximumAPDUDataSizeTag, in: [0x0A, 4, 0, 0]) == nil)
        #expect(PCSCReaderFeatures.property(PCSCReaderFeatures.maximumAPDUDataSizeTag, in: [0x0A, 5, 0, 0, 0, 0, 0]) == nil)
        #expect(PCSCReaderFeatures.property(PCSCReaderFeatures.maximumAPDUDataSizeTag, in: [0x01, 1, 0]) == nil)
    }
}
