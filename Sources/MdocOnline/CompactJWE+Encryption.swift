import MdocCBOR
import MdocCrypto
import MdocText

extension CompactJWE {
    /// A compact JWE of `plaintext` for `recipient` (a P-256 key): ECDH-ES with a fresh ephemeral
    /// key, the Concat KDF, then `encryption` with a random 96-bit IV (RFC 7516 section 5.1). The
    /// protected header holds `alg`, `enc`, `epk` and, when given, `apu`, `apv` and `kid`, in that
    /// order. The wallet's side of an encrypted response, and the tests' source of JWEs.
    ///
    /// Throws `.unsupportedKey` for a key not on P-256, `.jweTooLarge` for a plaintext whose JWE
    /// would exceed ``JWELimits/maximumCompactByteCount``, `.jweEncryptionFailed` if the crypto
    /// library fails.
    public static func encrypt(
        _ plaintext: [UInt8], to recipient: PublicKey, encryption: JWEContentEncryption,
        partyUInfo: [UInt8]? = nil, partyVInfo: [UInt8]? = nil, keyID: String? = nil
    ) throws(OnlineError) -> String {
        guard recipient.curve == .p256 else {
            throw OnlineError(.unsupportedKey, "an ECDH-ES JWE here is made for a P-256 key, not \(recipient.curve)")
        }
        // Base64url of the ciphertext alone, rounded up.
        guard (plaintext.count * 4 + 2) / 3 <= JWELimits.maximumCompactByteCount else {
            throw OnlineError(.jweTooLarge, "a plaintext of \(plaintext.count) bytes makes a JWE over \(JWELimits.maximumCompactByteCount) bytes")
        }
        do throws(CryptoError) {
            let ephemeral = try PrivateKey(generating: .p256)
            guard let (x, y) = ephemeral.publicKey.coordinates else {
                throw CryptoError(.libraryFailure, "OpenSSL gave no coordinates for the ephemeral key")
            }
            var members: [(String, JSONValue)] = [
                ("alg", .string(keyAgreementAlgorithm)),
                ("enc", .string(encryption.rawValue)),
                ("epk", .object([
                    ("kty", .string("EC")), ("crv", .string(Curve.p256.rawValue)),
                    ("x", .string(Base64URL.encode(x))), ("y", .string(Base64URL.encode(y))),
                ])),
            ]
            if let partyUInfo { members.append(("apu", .string(Base64URL.encode(partyUInfo)))) }
            if let partyVInfo { members.append(("apv", .string(Base64URL.encode(partyVInfo)))) }
            if let keyID { members.append(("kid", .string(keyID))) }
            let headerText = Base64URL.encode(Array(JSONValue.object(members).serialized().utf8))
            let key = try contentEncryptionKey(
                sharedSecret: try ephemeral.sharedSecret(with: recipient), encryption: encryption,
                partyUInfo: partyUInfo, partyVInfo: partyVInfo)
            var generator = SystemRandomNumberGenerator()
            let initializationVector = (0..<AESGCM.nonceByteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            let sealed = try AESGCM.seal(
                plaintext, key: key, nonce: initializationVector, authenticating: Array(headerText.utf8),
                keyLength: encryption.keyLength)
            let ciphertext = Array(sealed.dropLast(AESGCM.tagByteCount))
            let tag = Array(sealed.suffix(AESGCM.tagByteCount))
            return [headerText, "", Base64URL.encode(initializationVector), Base64URL.encode(ciphertext), Base64URL.encode(tag)]
                .joined(separator: ".")
        } catch {
            throw OnlineError(.jweEncryptionFailed, "the JWE could not be made: \(error.reason)")
        }
    }
}
