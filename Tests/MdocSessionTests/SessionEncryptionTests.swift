import MdocCrypto
import MdocSession
import Testing

@Suite("Session encryption: AES-256-GCM with per-direction counters (ISO/IEC 18013-5 9.1.1.5)")
struct SessionEncryptionTests {
    /// Both sides of a fresh session, each with keys from its own private key and the peer's
    /// public key.
    struct Session {
        var mdoc: SessionEncryption
        var reader: SessionEncryption
        let keys: SessionKeys

        init() throws {
            let eDeviceKey = try PrivateKey(generating: .p256)
            let eReaderKey = try PrivateKey(generating: .p256)
            let transcriptBytes: [UInt8] = [0xd8, 0x18, 0x44, 0x83, 0xf6, 0xf6, 0xf6]
            let mdocKeys = try SessionKeys(
                privateKey: eDeviceKey, peerPublicKey: eReaderKey.publicKey, sessionTranscriptBytes: transcriptBytes)
            let readerKeys = try SessionKeys(
                privateKey: eReaderKey, peerPublicKey: eDeviceKey.publicKey, sessionTranscriptBytes: transcriptBytes)
            #expect(mdocKeys.skReader == readerKeys.skReader)
            #expect(mdocKeys.skDevice == readerKeys.skDevice)
            #expect(mdocKeys.skReader != mdocKeys.skDevice)
            mdoc = SessionEncryption(role: .mdoc, keys: mdocKeys)
            reader = SessionEncryption(role: .reader, keys: readerKeys)
            keys = mdocKeys
        }
    }

    /// Runs `body`, which must fail with ``SessionError/Code/decryptionFailed``.
    static func expectDecryptionFailure(
        sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws(SessionError) -> Void
    ) {
        do {
            try body()
            Issue.record("expected decryptionFailed, but the message decrypted", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == .decryptionFailed, "\(error)", sourceLocation: sourceLocation)
        }
    }

    // MARK: Round trips

    @Test("reader to mdoc and mdoc to reader round trips, counters advancing by one")
    func roundTrips() throws {
        var session = try Session()
        for index in 1...3 {
            let request: [UInt8] = Array("request \(index)".utf8)
            let sealed = try session.reader.encrypt(request)
            #expect(sealed.count == request.count + 16)
            #expect(try session.mdoc.decrypt(sealed) == request)

            let response: [UInt8] = Array("response \(index)".utf8)
            #expect(try session.reader.decrypt(session.mdoc.encrypt(response)) == response)
        }
        #expect(session.reader.sendCounter == 4)
        #expect(session.reader.receiveCounter == 4)
        #expect(session.mdoc.sendCounter == 4)
        #expect(session.mdoc.receiveCounter == 4)
    }

    @Test("the last counter value is usable in both directions; the one after it ends the session")
    func counterLimit() throws {
        let session = try Session()
        let last = SessionEncryption.maximumCounter
        var mdoc = SessionEncryption(role: .mdoc, keys: session.keys, sendCounter: last, receiveCounter: last)
        var reader = SessionEncryption(role: .reader, keys: session.keys, sendCounter: last, receiveCounter: last)
        // Just under the limit: message number 2^32 - 1 still travels each way.
        #expect(try mdoc.decrypt(reader.encrypt([1, 2, 3])) == [1, 2, 3])
        #expect(try reader.decrypt(mdoc.encrypt([4])) == [4])
        // Over it: a further message would reuse an IV, so both directions refuse.
        do {
            _ = try reader.encrypt([5])
            Issue.record("encrypting past the counter limit succeeded")
        } catch {
            #expect(error.code == .counterExhausted)
        }
        do {
            _ = try mdoc.decrypt([UInt8](repeating: 0, count: 17))
            Issue.record("decrypting past the counter limit succeeded")
        } catch {
            #expect(error.code == .counterExhausted)
        }
    }

    @Test("an empty message round trips to a bare 16-byte tag")
    func emptyMessage() throws {
        var session = try Session()
        let sealed = try session.mdoc.encrypt([])
        #expect(sealed.count == 16)
        #expect(try session.reader.decrypt(sealed) == [])
    }

    @Test("equal plaintexts encrypt differently as the counter advances")
    func counterChangesCiphertext() throws {
        var session = try Session()
        let first = try session.reader.encrypt([1, 2, 3])
        let second = try session.reader.encrypt([1, 2, 3])
        #expect(first != second)
    }

    // MARK: Nonce layout

    @Test("the IV is the 8-byte identifier followed by the big-endian 32-bit counter")
    func nonceLayout() {
        #expect(SessionRole.reader.identifier == [0, 0, 0, 0, 0, 0, 0, 0])
        #expect(SessionRole.mdoc.identifier == [0, 0, 0, 0, 0, 0, 0, 1])
        #expect(SessionRole.mdoc.peer == .reader)
        #expect(SessionRole.reader.peer == .mdoc)
        #expect(SessionEncryption.nonce(identifier: SessionRole.mdoc.identifier, counter: 0x0102_0304)
            == [0, 0, 0, 0, 0, 0, 0, 1, 0x01, 0x02, 0x03, 0x04])
        #expect(SessionEncryption.nonce(identifier: SessionRole.reader.identifier, counter: 1)
            == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1])
        #expect(SessionEncryption.nonce(identifier: SessionRole.reader.identifier, counter: SessionEncryption.maximumCounter)
            == [0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff])
    }

    @Test("each message is sealed with the sender's key under identifier and counter")
    func messagesUseTheNonceLayout() throws {
        var session = try Session()
        let plaintext: [UInt8] = [0xa0]
        for counter: UInt32 in 1...2 {
            let fromReader = try session.reader.encrypt(plaintext)
            #expect(fromReader == (try AESGCM.seal(
                plaintext, key: session.keys.skReader, nonce: SessionEncryption.nonce(identifier: SessionRole.reader.identifier, counter: counter))))
            let fromMdoc = try session.mdoc.encrypt(plaintext)
            #expect(fromMdoc == (try AESGCM.seal(
                plaintext, key: session.keys.skDevice, nonce: SessionEncryption.nonce(identifier: SessionRole.mdoc.identifier, counter: counter))))
        }
    }

    // MARK: Rejected messages leave the receive counter unchanged

    @Test("a replayed message fails and the next message still decrypts")
    func replay() throws {
        var session = try Session()
        let first = try session.reader.encrypt([1])
        let second = try session.reader.encrypt([2])
        #expect(try session.mdoc.decrypt(first) == [1])
        Self.expectDecryptionFailure { () throws(SessionError) in _ = try session.mdoc.decrypt(first) }
        #expect(session.mdoc.receiveCounter == 2)
        #expect(try session.mdoc.decrypt(second) == [2])
    }

    @Test("a skipped message makes the next one fail, and the skipped one still decrypts")
    func skippedMessage() throws {
        var session = try Session()
        let first = try session.mdoc.encrypt([1])
        let second = try session.mdoc.encrypt([2])
        Self.expectDecryptionFailure { () throws(SessionError) in _ = try session.reader.decrypt(second) }
        #expect(session.reader.receiveCounter == 1)
        #expect(try session.reader.decrypt(first) == [1])
        #expect(try session.reader.decrypt(second) == [2])
    }

    @Test("reordered messages fail until they arrive in order")
    func reorderedMessages() throws {
        var session = try Session()
        let messages = try (1...3).map { (index: UInt8) throws(SessionError) in try session.reader.encrypt([index]) }
        Self.expectDecryptionFailure { () throws(SessionError) in _ = try session.mdoc.decrypt(messages[2]) }
        Self.expectDecryptionFailure { () throws(SessionError) in _ = try session.mdoc.decrypt(messages[1]) }
        #expect(session.mdoc.receiveCounter == 1)
        #expect(try session.mdoc.decrypt(messages[0]) == [1])
        Self.expectDecryptionFailure { () throws(SessionError) in _ = try session.mdoc.decrypt(messages[2]) }
        #expect(session.mdoc.receiveCounter == 2)
        #expect(try session.mdoc.decrypt(messages[1]) == [2])
        #expect(try session.mdoc.decrypt(messages[2]) == [3])
    }

    @Test("a message from the wrong role fails: a side cannot decrypt its own messages")
    func wrongRole() throws {
        var session = try Session()
        let fromReader = try session.reader.encrypt([1])
        var otherReader = SessionEncryption(role: .reader, keys: session.keys)
        Self.expectDecryptionFailure { () throws(SessionError) in _ = try otherReader.decrypt(fromReader) }
        #expect(otherReader.receiveCounter == 1)

        let fromMdoc = try session.mdoc.encrypt([2])
        var otherMdoc = SessionEncryption(role: .mdoc, keys: session.keys)
        Self.expectDecryptionFailure { () throws(SessionError) in _ = try otherMdoc.decrypt(fromMdoc) }
        #expect(otherMdoc.receiveCounter == 1)

        #expect(try session.mdoc.decrypt(fromReader) == [1])
        #expect(try session.reader.decrypt(fromMdoc) == [2])
    }

    @Test("a truncated message fails, down to one shorter than the tag")
    func truncated() throws {
        var session = try Session()
        let sealed = try session.reader.encrypt(Array("truncate me".utf8))
        for length in [sealed.count - 1, 16, 15, 0] {
            Self.expectDecryptionFailure { () throws(SessionError) in _ = try session.mdoc.decrypt(Array(sealed.prefix(length))) }
        }
        #expect(session.mdoc.receiveCounter == 1)
        #expect(try session.mdoc.decrypt(sealed) == Array("truncate me".utf8))
    }

    @Test("a flipped bit in the ciphertext or the tag fails")
    func flippedBit() throws {
        var session = try Session()
        let sealed = try session.mdoc.encrypt(Array("flip me".utf8))
        for position in [0, sealed.count - 17, sealed.count - 16, sealed.count - 1] {
            var altered = sealed
            altered[position] ^= 0x01
            Self.expectDecryptionFailure { () throws(SessionError) in _ = try session.reader.decrypt(altered) }
        }
        #expect(session.reader.receiveCounter == 1)
        #expect(try session.reader.decrypt(sealed) == Array("flip me".utf8))
    }

    @Test("a message under another session's keys fails")
    func otherSession() throws {
        var first = try Session()
        var second = try Session()
        let sealed = try first.reader.encrypt([1])
        Self.expectDecryptionFailure { () throws(SessionError) in _ = try second.mdoc.decrypt(sealed) }
        #expect(second.mdoc.receiveCounter == 1)
    }
}
