import FuzzSupport
import MdocCBOR
import MdocCrypto
import MdocOnline

/// The recipient key of RFC 9180 Appendix A.3.1 (`skRm`), to which the HPKE seeds are sealed
/// (Vectors/rfc9180-hpke/pyca-cryptography-base-p256.json).
private let hpkeRecipient: PrivateKey = {
    guard let key = try? PrivateKey(
        rawRepresentation: Hex.decode("f3ce7fdae57e1a310d87f1ebbde6f328be0a99cdbcadf4d6589cf29de4b8ffd2") ?? [], curve: .p256)
    else { fatalError("the RFC 9180 recipient key does not load") }
    return key
}()

/// The `info` of the HPKE seeds: the SessionTranscript example of OpenID4VP 1.0 Appendix B.2.6.2.
private let hpkeInfo = Hex.decode(
    "83f6f682764f70656e4944345650444341504948616e646f7665725820fbece366f4212f9762c74cfdbf83b8c69e371d5d68cea09cb4c48ca6daab761a") ?? []

/// Bob's key of RFC 7518 Appendix C, to which the JWE seeds are encrypted.
private let jweRecipient: PrivateKey = {
    guard let key = try? PrivateKey(rawRepresentation: Base64URL.decode("VEmDZpDXXK8p8N0Cndsxs924q6nS1RXFASRl6BfUqdw") ?? [], curve: .p256)
    else { fatalError("the RFC 7518 key does not load") }
    return key
}()

/// What an online verifier receives encrypted: the input as a compact JWE (read, then decrypted
/// with the seeds' key, in both encryptions), and as an HPKE message of ISO/IEC TS 18013-7 Annex C
/// (the first 65 bytes `enc`, the rest `ct`, opened in both suites). A JWE that reads keeps its
/// header text as the first part; an opened HPKE message is its ciphertext less the tag.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOnline(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput.bytes(data, size)
    let text = String(decoding: bytes, as: UTF8.self)
    if let jwe = try? CompactJWE(compact: text) {
        precondition(text.hasPrefix(jwe.protectedHeaderText + "."), "a JWE does not keep its header text")
        precondition(jwe.initializationVector.count == AESGCM.nonceByteCount && jwe.authenticationTag.count == AESGCM.tagByteCount)
        if let plaintext = try? jwe.decrypt(with: jweRecipient) {
            precondition(plaintext.count == jwe.ciphertext.count, "a JWE decrypts to another length than its ciphertext")
        }
    }
    let message = HPKESealedMessage(encapsulatedKey: Array(bytes.prefix(65)), ciphertext: Array(bytes.dropFirst(65)))
    for suite in HPKECipherSuite.allCases {
        if let plaintext = try? HPKE.open(message, recipientKey: hpkeRecipient, info: hpkeInfo, suite: suite) {
            precondition(plaintext.count + AESGCM.tagByteCount == message.ciphertext.count, "HPKE opened to the wrong length")
        }
    }
    return 0
}
