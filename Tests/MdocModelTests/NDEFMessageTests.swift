import MdocCBOR
import MdocModel
import Testing

@Suite("NDEF messages of NFC handover (NFC Forum NDEF 1.0, ISO/IEC 18013-5 8.2.2.1)")
struct NDEFMessageTests {
    /// A short record: header, type length, payload length, ID length when `id` is not empty.
    static func record(
        first: Bool, last: Bool, tnf: UInt8 = 1, type: String, id: String = "", payload: [UInt8]
    ) -> [UInt8] {
        var header = tnf | 0x10
        if first { header |= 0x80 }
        if last { header |= 0x40 }
        if !id.isEmpty { header |= 0x08 }
        var bytes = [header, UInt8(type.utf8.count), UInt8(payload.count)]
        if !id.isEmpty { bytes.append(UInt8(id.utf8.count)) }
        return bytes + Array(type.utf8) + Array(id.utf8) + payload
    }

    static func expectError(_ code: NDEFError.Code, _ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(throws: NDEFError.self, sourceLocation: sourceLocation) { try NDEFMessage(bytes: bytes) }
        do {
            _ = try NDEFMessage(bytes: bytes)
        } catch {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        }
    }

    @Test("the Annex D Handover Select message: Hs, the BLE carrier and the DeviceEngagement record")
    func handoverSelect() throws {
        let message = try NDEFMessage(bytes: annexD("nfc_handover_select"))
        #expect(message.records.map(\.typeText) == ["Hs", "application/vnd.bluetooth.le.oob", "iso.org:18013:deviceengagement"])
        #expect(message.records.map(\.typeNameFormat) == [.wellKnown, .mediaType, .external])
        #expect(message.records.map(\.idText) == ["", "0", "mdoc"])
        // The DeviceEngagement record holds the NFC engagement of Annex D byte for byte.
        #expect(message.records[2].payload == annexD("device_engagement_nfc"))
        // The Handover Select payload is the version 1.5 and a message of one Alternative Carrier.
        let select = message.records[0].payload
        #expect(select.first == 0x15)
        let local = try NDEFMessage(bytes: Array(select.dropFirst()))
        #expect(local.records.map(\.typeText) == ["ac"])
    }

    @Test("the Annex D Handover Request message: Hr with cr and three ac, and three carriers")
    func handoverRequest() throws {
        let message = try NDEFMessage(bytes: annexD("nfc_handover_request"))
        #expect(message.records.map(\.typeText) == ["Hr", "application/vnd.bluetooth.le.oob", "iso.org:18013:nfc", "application/vnd.wfa.nan"])
        let local = try NDEFMessage(bytes: Array(message.records[0].payload.dropFirst()))
        #expect(local.records.map(\.typeText) == ["cr", "ac", "ac", "ac"])
    }

    @Test func aLongRecordHasAFourOctetPayloadLength() throws {
        let payload = [UInt8](repeating: 0xab, count: 300)
        let bytes: [UInt8] = [0xc2, 0x01, 0x00, 0x00, 0x01, 0x2c, UInt8(ascii: "x")] + payload
        let message = try NDEFMessage(bytes: bytes)
        #expect(message.records.count == 1)
        #expect(message.records[0].payload == payload)
        #expect(message.records[0].typeNameFormat == .mediaType)
    }

    @Test func everyDeclaredLengthOneTooLongIsTruncated() {
        let bytes = Self.record(first: true, last: true, type: "ac", id: "0", payload: [1, 2, 3])
        for cut in 1..<bytes.count {
            Self.expectError(.truncated, Array(bytes.prefix(cut)))
        }
    }

    @Test func theMessageBoundaryFlagsMustMarkTheFirstAndLastRecord() {
        let noBegin = Self.record(first: false, last: true, type: "ac", payload: [])
        Self.expectError(.badMessageBoundary, noBegin)
        let twoBegins = Self.record(first: true, last: false, type: "ac", payload: []) + Self.record(first: true, last: true, type: "ac", payload: [])
        Self.expectError(.badMessageBoundary, twoBegins)
        let noEnd = Self.record(first: true, last: false, type: "ac", payload: [])
        Self.expectError(.badMessageBoundary, noEnd)
        let afterEnd = Self.record(first: true, last: true, type: "ac", payload: []) + [0x00]
        Self.expectError(.notOneMessage, afterEnd)
        Self.expectError(.notOneMessage, [])
    }

    @Test func chunkedRecordsAreRefused() {
        var bytes = Self.record(first: true, last: true, type: "ac", payload: [1])
        bytes[0] |= 0x20
        Self.expectError(.chunkedRecord, bytes)
    }

    @Test func theRecordCountIsBounded() throws {
        func message(records count: Int) -> [UInt8] {
            (0..<count).flatMap { index in
                Self.record(first: index == 0, last: index == count - 1, type: "ac", payload: [])
            }
        }
        #expect(try NDEFMessage(bytes: message(records: NDEFMessage.maximumRecordCount)).records.count == NDEFMessage.maximumRecordCount)
        Self.expectError(.tooManyRecords, message(records: NDEFMessage.maximumRecordCount + 1))
    }
}
