/// Byte-exact APDU exchanges of another implementation, taken as facts from the tests of
/// Multipaz (openwallet-foundation/multipaz, commit af670c68e15f):
/// `multipaz/src/commonTest/kotlin/org/multipaz/mdoc/nfc/MdocNfcEngagementHelperTest.kt`
/// (`testStaticHandover`, `testNegotiatedHandover`) and
/// `multipaz/src/commonTest/kotlin/org/multipaz/mdoc/transport/NfcTransportTests.kt`
/// (`testHappyPath`, `testLowTransceiveLength`). Only the hexadecimal bytes are taken.
enum Multipaz {
    /// The DeviceEngagement of both engagement tests (a fixed EDeviceKey, no retrieval methods).
    static let deviceEngagement = """
        a20063312e30018201d818584ba4010220012158207104f7e2c2e95ca76482c0c963d454b7e5d053c5b59ce89d00ff7c7d7ab6ff7d22582\
        0f442821292c2453ec67c75233ea56e1734c211ae26b259fdf232b5b3d82b1ba2
        """

    /// The BLE service UUID of both engagement tests.
    static let bleUUID = "B3D52AC4-A1B6-4B51-A22E-78EE55EF6EB6"

    /// The capability container of static handover (write access FF).
    static let staticCapabilityContainer = "000f207fff7fff0406e1047fff00ff"
    /// The capability container of negotiated handover (write access 00).
    static let negotiatedCapabilityContainer = "000f207fff7fff0406e1047fff0000"

    /// The Handover Select message of static handover: BLE (both modes, one UUID) and NFC
    /// (65535 / 65536) carriers.
    static let staticHandoverSelect = """
        91021f487315910209616301013001046d646f6351020b616301036e666301046d646f631c1e580469736f2e6f72673a31383031333a6465\
        76696365656e676167656d656e746d646f63\(deviceEngagement)1a2015016170706c69636174696f6e2f766e642e626c7565746f6f746\
        82e6c652e6f6f6230021c031107b66eef55ee782ea2514bb6a1c42ad5b35c110a0369736f2e6f72673a31383031333a6e66636e666301030\
        1ffff0402010000
        """

    /// The initial NDEF message of negotiated handover: the Service Parameter record.
    static let serviceParameter = "d1021a5470101375726e3a6e66633a736e3a68616e646f76657200000fffff"
    /// The Service Select message the reader writes.
    static let serviceSelect = "d1021454731375726e3a6e66633a736e3a68616e646f766572"
    /// The TNEP status message: success.
    static let tnepStatus = "d10201546500"

    /// The Handover Request message the reader writes: no collision resolution record, BLE and
    /// NFC carriers, ReaderEngagement {0: "1.0"}.
    static let handoverRequest = """
        910215487215910204616301013000510206616301036e6663001c1e060a69736f2e6f72673a31383031333a726561646572656e6761676\
        56d656e746d646f63726561646572a10063312e301a2015016170706c69636174696f6e2f766e642e626c7565746f6f74682e6c652e6f6f62\
        30021c031107b66eef55ee782ea2514bb6a1c42ad5b35c110a0369736f2e6f72673a31383031333a6e66636e6663010301ffff0402010000
        """

    /// The Handover Select message the mdoc answers with: mdoc central client mode, no UUID.
    static let negotiatedHandoverSelect = """
        91020f487315d10209616301013001046d646f631c1e580469736f2e6f72673a31383031333a646576696365656e676167656d656e746d646f\
        63\(deviceEngagement)5a2003016170706c69636174696f6e2f766e642e626c7565746f6f74682e6c652e6f6f6230021c01
        """
}
