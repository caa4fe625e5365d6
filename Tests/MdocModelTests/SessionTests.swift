import MdocCBOR
import MdocCOSE
import MdocModel
import Testing

@Suite("SessionEstablishment, SessionData and SessionTranscript (ISO/IEC 18013-5 9.1)")
struct SessionTests {
    @Test("D.5.1 SessionEstablishment decodes and re-encodes byte-exactly")
    func sessionEstablishment() throws {
        let bytes = annexD("session_establishment")
        let message = try SessionEstablishment(encoded: bytes)
        #expect(message.encoded() == bytes)
        #expect(message.eReaderKey.cbor.encoded() == annexD("e_reader_key_bytes"))
        #expect(message.eReaderKey.value.x == annexD("eReaderKey_public_x"))
        #expect(message.eReaderKey.value.y == annexD("eReaderKey_public_y"))
        #expect(message.data == annexD("session_establishment_ciphertext"))
    }

    @Test("SessionEstablishment requires both keys with their types")
    func sessionEstablishmentErrors() throws {
        let cbor = try CBOR.decode(annexD("session_establishment"))
        expectCBORError(.missingValue, at: "top level") { () throws(CBORError) in
            _ = try SessionEstablishment(cbor: removing("data", from: cbor), at: .root)
        }
        expectCBORError(.missingValue, at: "top level") { () throws(CBORError) in
            _ = try SessionEstablishment(cbor: removing("eReaderKey", from: cbor), at: .root)
        }
        expectCBORError(.unexpectedType, at: "data") { () throws(CBORError) in
            _ = try SessionEstablishment(cbor: replacing("data", with: "text", in: cbor), at: .root)
        }
        expectCBORError(.unexpectedType, at: "eReaderKey") { () throws(CBORError) in
            _ = try SessionEstablishment(cbor: replacing("eReaderKey", with: .byteString([0xa0]), in: cbor), at: .root)
        }
    }

    @Test("D.5.1 SessionData with data, and session termination")
    func sessionData() throws {
        let response = annexD("session_data_response")
        let data = try SessionData(encoded: response)
        #expect(data.encoded() == response)
        #expect(data.data == annexD("session_data_response_ciphertext"))
        #expect(data.status == nil)

        let termination = annexD("session_termination")
        let end = try SessionData(encoded: termination)
        #expect(end.encoded() == termination)
        #expect(end.data == nil)
        #expect(end.status == .sessionTermination)
        #expect(SessionData(status: .sessionTermination).encoded() == termination)
    }

    @Test("SessionData keeps status codes it does not name")
    func sessionDataUnknownStatus() throws {
        let message = try SessionData(cbor: ["status": 42], at: .root)
        #expect(message.status?.rawValue == 42)
        #expect(message.status?.description == "unknown status 42")
        #expect(message.cbor == ["status": 42])
        #expect(SessionData.Status.sessionEncryptionError.rawValue == 10)
        #expect(SessionData.Status.cborDecodingError.rawValue == 11)
        expectCBORError(.unexpectedType, at: "status") { () throws(CBORError) in
            _ = try SessionData(cbor: ["status": -1], at: .root)
        }
    }

    @Test("D.5.1 SessionTranscript: NFC handover, exact bytes, tag-24 form")
    func sessionTranscript() throws {
        let bytes = annexD("session_transcript")
        let transcript = try SessionTranscript(encoded: bytes)
        #expect(transcript.encoded() == bytes)
        #expect(transcript.deviceEngagementBytes.map { Array($0.bytes) } == annexD("device_engagement_nfc"))
        #expect(transcript.eReaderKeyBytes?.cbor.encoded() == annexD("e_reader_key_bytes"))
        #expect(transcript.handover == .nfc(handoverSelect: annexD("nfc_handover_select"), handoverRequest: annexD("nfc_handover_request")))
        #expect(transcript.bytes.encoded() == annexD("session_transcript_bytes"))

        let tagged = try EmbeddedCBOR<SessionTranscript>(encoded: annexD("session_transcript_bytes"))
        #expect(tagged.bytes == bytes)
        #expect(tagged.encoded() == annexD("session_transcript_bytes"))
    }

    @Test("a transcript built from its parts equals the Annex D one")
    func sessionTranscriptBuilt() throws {
        let transcript = SessionTranscript(
            deviceEngagementBytes: try EmbeddedCBOR(bytes: annexD("device_engagement_nfc")),
            eReaderKeyBytes: try EmbeddedCBOR(encoded: annexD("e_reader_key_bytes")),
            handover: .nfc(handoverSelect: annexD("nfc_handover_select"), handoverRequest: annexD("nfc_handover_request")))
        #expect(transcript.bytes.encoded() == annexD("session_transcript_bytes"))
    }

    @Test("handover forms: QR null, NFC static, other kept as received")
    func handoverForms() throws {
        #expect(Handover(cbor: .null, at: .root) == .qr)
        #expect(Handover.qr.cbor == .null)
        let staticNFC = Handover(cbor: [.byteString([1]), .null], at: .root)
        #expect(staticNFC == .nfc(handoverSelect: [1], handoverRequest: nil))
        #expect(staticNFC.cbor == [.byteString([1]), .null])
        let others: [CBOR] = [["OpenID4VPHandover", .byteString([2])], [.byteString([1])], [.byteString([1]), 5], "x"]
        for other in others {
            #expect(Handover(cbor: other, at: .root) == .other(other))
            #expect(Handover(cbor: other, at: .root).cbor == other)
        }
        let deviceEngagement = try EmbeddedCBOR<DeviceEngagement>(bytes: annexD("device_engagement"))
        let eReaderKey = try SessionEstablishment(encoded: annexD("session_establishment")).eReaderKey
        let qr = SessionTranscript(deviceEngagementBytes: deviceEngagement, eReaderKeyBytes: eReaderKey, handover: .qr)
        let decoded = try SessionTranscript(encoded: qr.encoded())
        #expect(decoded.handover == .qr)
        #expect(decoded.deviceEngagementBytes.map { Array($0.bytes) } == annexD("device_engagement"))
        let browser = SessionTranscript(deviceEngagementBytes: nil, eReaderKeyBytes: nil, handover: .other(["h", 1]))
        #expect(browser.cbor == [.null, .null, ["h", 1]])
        let rereadBrowser = try SessionTranscript(cbor: browser.cbor, at: .root)
        #expect(rereadBrowser.deviceEngagementBytes == nil && rereadBrowser.eReaderKeyBytes == nil)
    }

    @Test("SessionTranscript shape errors name their path")
    func sessionTranscriptErrors() throws {
        let items = try CBOR.decode(annexD("session_transcript")).array(at: .root)
        expectCBORError(.invalidValue, at: "top level") { () throws(CBORError) in
            _ = try SessionTranscript(cbor: .array(Array(items.prefix(2))), at: .root)
        }
        expectCBORError(.unexpectedType, at: "[1]") { () throws(CBORError) in
            _ = try SessionTranscript(cbor: [items[0], .byteString([1]), items[2]], at: .root)
        }
        expectCBORError(.unexpectedType, at: "top level") { () throws(CBORError) in
            _ = try SessionTranscript(cbor: ["a": 1], at: .root)
        }
    }
}
