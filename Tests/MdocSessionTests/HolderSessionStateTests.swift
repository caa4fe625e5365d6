import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel
import MdocPresentation
import MdocSession
import Testing
import MdocTestSupport

@Suite("HolderSession states and SessionStatusMapping (ISO/IEC 18013-5 9.1.1.4)")
struct HolderSessionStateTests {
    static func pair() throws -> (SessionPair, TestPKI) {
        let pki = try TestPKI()
        let pair = try SessionPair(
            credentials: [TestCredentials.mDL(pki: pki)], request: [RequestPreset.ageOver18.docRequestSpec()], issuerAnchors: [pki.iaca])
        return (pair, pki)
    }

    @Test("the transport ending before a response is an error, after a response a normal end")
    func transportEnd() throws {
        var (pair, _) = try Self.pair()
        var fresh = pair.holder
        guard case .finished(.failed(let beforeAnything)) = fresh.transportEnded() else {
            Issue.record("an end before any message was not an error")
            return
        }
        #expect(beforeAnything.code == .transportEndedEarly)

        guard case .requestReceived = try pair.start() else {
            Issue.record("no consent question")
            return
        }
        var asking = pair.holder
        guard case .finished(.failed(let duringConsent)) = asking.transportEnded() else {
            Issue.record("an end during consent was not an error")
            return
        }
        #expect(duringConsent.code == .transportEndedEarly)

        guard case .send(let response) = pair.holder.decide(.none) else {
            Issue.record("no response")
            return
        }
        _ = pair.toReader(response)
        guard case .finished(.transportEnded) = pair.holder.transportEnded() else {
            Issue.record("an end after the response was not normal")
            return
        }
        guard case .finished(.transportEnded) = pair.holder.receive(SessionStatusMapping.terminationMessage) else {
            Issue.record("a finished session did not stay finished")
            return
        }
    }

    @Test("a consent decision with no request pending ends the session with status 20")
    func decideOutOfTurn() throws {
        var (pair, _) = try Self.pair()
        guard case .sendAndFinish(let reply, .failed(let error)) = pair.holder.decide(.none) else {
            Issue.record("an unrequested decision was accepted")
            return
        }
        #expect(error.code == .invalidState)
        #expect(sessionStatus(reply) == .sessionTermination)
    }

    @Test("status 20 while the holder is still deciding ends the session; so does a request before the answer")
    func messagesDuringConsent() throws {
        var (pair, _) = try Self.pair()
        guard case .requestReceived = try pair.start() else {
            Issue.record("no consent question")
            return
        }
        var cancelled = pair.holder
        guard case .finished(.terminatedByReader) = cancelled.receive(SessionStatusMapping.terminationMessage) else {
            Issue.record("status 20 during consent did not end the session")
            return
        }
        guard case .sendAndFinish(let reply, .failed(let error)) = pair.holder.receive(SessionData(data: [0, 1, 2]).encoded()) else {
            Issue.record("a request during consent was accepted")
            return
        }
        #expect(error.code == .unexpectedMessage)
        #expect(sessionStatus(reply) == .sessionTermination)
    }

    @Test("SessionData with neither data nor status is refused with status 20")
    func emptySessionData() throws {
        var (pair, _) = try Self.pair()
        _ = try pair.exchange(\.allAvailable)
        guard case .sendAndFinish(let reply, .failed(let error)) = pair.toHolder(SessionData().encoded()) else {
            Issue.record("an empty SessionData was accepted")
            return
        }
        #expect(error.code == .unexpectedMessage)
        #expect(sessionStatus(reply) == .sessionTermination)
    }

    @Test("an EReaderKey on another curve than EDeviceKey gets status 10")
    func readerKeyOnOtherCurve() throws {
        var (pair, _) = try Self.pair()
        let otherKey = EmbeddedCBOR(COSEKey(publicKey: try PrivateKey(generating: .p384).publicKey))
        guard case .sendAndFinish(let reply, .failed(let error)) = pair.toHolder(SessionEstablishment(eReaderKey: otherKey, data: [1, 2, 3]).encoded()) else {
            Issue.record("a foreign EReaderKey was accepted")
            return
        }
        #expect(error.code == .keyDerivationFailed)
        #expect(sessionStatus(reply) == .sessionEncryptionError)
    }

    @Test("errors map to status 10, 11 or 20, and statuses back to errors, in one place")
    func statusMapping() {
        for code: SessionError.Code in [.decryptionFailed, .keyDerivationFailed, .unsupportedCipherSuite, .encryptionFailed] {
            #expect(SessionStatusMapping.status(for: SessionError(code, "")) == .sessionEncryptionError)
        }
        #expect(SessionStatusMapping.status(for: SessionError(.messageDecodingFailed, "")) == .cborDecodingError)
        for code: SessionError.Code in [.counterExhausted, .unexpectedMessage, .invalidState, .messageConstructionFailed] {
            #expect(SessionStatusMapping.status(for: SessionError(code, "")) == .sessionTermination)
        }
        #expect(SessionStatusMapping.message(for: SessionError(.decryptionFailed, "")) == SessionData(status: .sessionEncryptionError).encoded())
        #expect(SessionStatusMapping.terminationMessage == [0xA1, 0x66] + Array("status".utf8) + [0x14])
        #expect(SessionStatusMapping.error(for: .sessionTermination, from: .reader) == nil)
        let error = SessionStatusMapping.error(for: .cborDecodingError, from: .reader)
        #expect(error?.code == .peerReportedError)
        #expect(error?.reason == "the mdoc reader ended the session with status CBOR decoding error (11)")
    }
}
