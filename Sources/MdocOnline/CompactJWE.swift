import MdocCBOR
import MdocCrypto
import MdocText

/// A JWE in the compact serialisation (RFC 7516 section 7.1) whose key is agreed with ECDH-ES
/// directly (RFC 7518 section 4.6) on P-256 and whose content is encrypted with AES-GCM: the
/// encrypted responses of OpenID4VP 1.0 (`direct_post.jwt`, `dc_api.jwt`) and of ISO/IEC TS
/// 18013-7:2024 Annex B.
///
/// Reading refuses every other algorithm before any key is used, so a sender cannot pick one
/// (algorithm confusion): `alg` must be `ECDH-ES` itself (not `dir`, not `ECDH-ES+A128KW`, not
/// `none`), `enc` one of ``JWEContentEncryption`` that the caller accepts, the `epk` an EC P-256
/// public key on the curve; compression (`zip`) and critical extensions (`crit`) are refused,
/// as are a JWE Encrypted Key (ECDH-ES has none), an IV that is not 96 bits and a tag that is not
/// 128 bits. Members the header may carry beside these (`kid`, `typ`...) are kept in ``header``.
public struct CompactJWE: Sendable {
    /// The `alg` this type accepts, and the only one.
    public static let keyAgreementAlgorithm = "ECDH-ES"

    /// The protected header as received: its base64url text, the AAD of the encryption (RFC 7516
    /// section 5.2, step 14).
    public let protectedHeaderText: String
    /// The protected header, decoded.
    public let header: JSONValue
    /// `enc`.
    public let contentEncryption: JWEContentEncryption
    /// `epk`: the sender's ephemeral public key.
    public let ephemeralKey: PublicKey
    /// `apu` decoded (for ISO/IEC TS 18013-7:2024 Annex B, the mdocGeneratedNonce), or `nil`.
    public let partyUInfo: [UInt8]?
    /// `apv` decoded, or `nil`.
    public let partyVInfo: [UInt8]?
    /// `kid`, or `nil`.
    public let keyID: String?
    /// The 96-bit IV.
    public let initializationVector: [UInt8]
    /// The ciphertext.
    public let ciphertext: [UInt8]
    /// The 128-bit authentication tag.
    public let authenticationTag: [UInt8]

    /// Reads a compact JWE, accepting only `encryptions` as `enc` (by default both).
    ///
    /// Throws `.jweTooLarge` for text or a header over ``JWELimits``, `.malformedJWE` for text
    /// that is not a JWE of this form, `.unsupportedJWEAlgorithm` for an `alg`, `enc`, `zip` or
    /// `crit` refused, `.invalidEphemeralKey` for an `epk` that is not a P-256 point.
    public init(
        compact: String, accepting encryptions: Set<JWEContentEncryption> = Set(JWEContentEncryption.allCases)
    ) throws(OnlineError) {
        let text = Array(compact.utf8)
        guard text.count <= JWELimits.maximumCompactByteCount else {
            throw OnlineError(.jweTooLarge, "the JWE has \(text.count) bytes, more than the limit of \(JWELimits.maximumCompactByteCount)")
        }
        let parts = text.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 5 else {
            throw OnlineError(.malformedJWE, "a compact JWE has 5 parts separated by dots, this text has \(parts.count)")
        }
        // Base64url of the header limit, rounded up, before anything is decoded.
        guard parts[0].count <= (JWELimits.maximumHeaderByteCount * 4 + 2) / 3 else {
            throw OnlineError(
                .jweTooLarge, "the JWE protected header has \(parts[0].count) base64url characters, more than \(JWELimits.maximumHeaderByteCount) bytes")
        }
        let names = ["protected header", "encrypted key", "initialization vector", "ciphertext", "authentication tag"]
        var decoded: [[UInt8]] = []
        for (part, name) in zip(parts, names) {
            guard !part.contains(UInt8(ascii: "=")), let bytes = Base64URL.decode(String(decoding: part, as: UTF8.self)) else {
                throw OnlineError(.malformedJWE, "the JWE \(name) is not base64url without padding")
            }
            decoded.append(bytes)
        }
        guard decoded[0].count <= JWELimits.maximumHeaderByteCount else {
            throw OnlineError(
                .jweTooLarge, "the JWE protected header has \(decoded[0].count) bytes, more than the limit of \(JWELimits.maximumHeaderByteCount)")
        }
        guard decoded[1].isEmpty else {
            throw OnlineError(.malformedJWE, "the JWE has an encrypted key of \(decoded[1].count) bytes; ECDH-ES uses the agreed key directly and has none")
        }
        guard decoded[2].count == AESGCM.nonceByteCount else {
            throw OnlineError(.malformedJWE, "the JWE initialization vector has \(decoded[2].count) bytes, not the \(AESGCM.nonceByteCount) of AES-GCM")
        }
        guard decoded[4].count == AESGCM.tagByteCount else {
            throw OnlineError(.malformedJWE, "the JWE authentication tag has \(decoded[4].count) bytes, not the \(AESGCM.tagByteCount) of AES-GCM")
        }
        let header: JSONValue
        do {
            header = try JSONParser.parse(decoded[0], maximumDepth: JWELimits.maximumHeaderDepth)
        } catch {
            throw OnlineError(.malformedJWE, "the JWE protected header is not JSON this reads: \(error.reason) (column \(error.column))")
        }
        let fields = try HeaderFields(header)
        guard let algorithm = try fields.string("alg") else {
            throw OnlineError(.malformedJWE, "the JWE protected header has no \"alg\"")
        }
        guard algorithm == Self.keyAgreementAlgorithm else {
            throw OnlineError(
                .unsupportedJWEAlgorithm, "the JWE \"alg\" is \"\(UntrustedText.escaped(algorithm))\"; only \(Self.keyAgreementAlgorithm) is accepted")
        }
        guard let encryptionName = try fields.string("enc") else {
            throw OnlineError(.malformedJWE, "the JWE protected header has no \"enc\"")
        }
        guard let encryption = JWEContentEncryption(rawValue: encryptionName), encryptions.contains(encryption) else {
            let accepted = JWEContentEncryption.allCases.filter(encryptions.contains).map(\.rawValue).joined(separator: ", ")
            throw OnlineError(
                .unsupportedJWEAlgorithm, "the JWE \"enc\" is \"\(UntrustedText.escaped(encryptionName))\"; accepted: \(accepted.isEmpty ? "none" : accepted)")
        }
        for refused in ["zip", "crit"] where fields.has(refused) {
            throw OnlineError(.unsupportedJWEAlgorithm, "the JWE protected header has \"\(refused)\", which is not accepted")
        }
        self.protectedHeaderText = String(decoding: parts[0], as: UTF8.self)
        self.header = header
        self.contentEncryption = encryption
        self.ephemeralKey = try fields.ephemeralKey()
        self.partyUInfo = try fields.bytes("apu")
        self.partyVInfo = try fields.bytes("apv")
        self.keyID = try fields.string("kid")
        self.initializationVector = decoded[2]
        self.ciphertext = decoded[3]
        self.authenticationTag = decoded[4]
    }

    /// The plaintext, decrypted with the recipient's P-256 key: ECDH-ES with the `epk`, the
    /// Concat KDF (RFC 7518 section 4.6.2), then AES-GCM with the protected header's text as AAD.
    ///
    /// Throws `.unsupportedKey` for a key not on P-256, `.invalidEphemeralKey` when the `epk`
    /// fails validation for key agreement, `.jweDecryptionFailed` when the tag does not verify
    /// (another recipient, altered bytes); nothing of the plaintext is returned then.
    public func decrypt(with recipientKey: PrivateKey) throws(OnlineError) -> [UInt8] {
        guard recipientKey.curve == .p256 else {
            throw OnlineError(.unsupportedKey, "an ECDH-ES JWE with a P-256 epk needs a P-256 key, not \(recipientKey.curve)")
        }
        do {
            let sharedSecret = try recipientKey.sharedSecret(with: ephemeralKey)
            let key = try Self.contentEncryptionKey(
                sharedSecret: sharedSecret, encryption: contentEncryption, partyUInfo: partyUInfo, partyVInfo: partyVInfo)
            return try AESGCM.open(
                ciphertext + authenticationTag, key: key, nonce: initializationVector,
                authenticating: Array(protectedHeaderText.utf8), keyLength: contentEncryption.keyLength)
        } catch where error.code == .invalidPoint {
            throw OnlineError(.invalidEphemeralKey, "the JWE epk is not usable for key agreement: \(error.reason)")
        } catch where error.code == .authenticationFailure {
            throw OnlineError(.jweDecryptionFailed, "the JWE does not decrypt with this key: the \(contentEncryption) tag does not verify")
        } catch {
            throw OnlineError(.jweDecryptionFailed, "the JWE could not be decrypted: \(error.reason)")
        }
    }

    /// The content encryption key of ECDH-ES in direct key agreement (RFC 7518 section 4.6.2):
    /// the Concat KDF of Z with `OtherInfo = AlgorithmID || PartyUInfo || PartyVInfo ||
    /// SuppPubInfo`, where AlgorithmID is the `enc` value, each of the first three is prefixed
    /// with its 32-bit big-endian length, and SuppPubInfo is the key length in bits.
    static func contentEncryptionKey(
        sharedSecret: SharedSecret, encryption: JWEContentEncryption, partyUInfo: [UInt8]?, partyVInfo: [UInt8]?
    ) throws(CryptoError) -> SymmetricKey {
        func lengthPrefixed(_ bytes: [UInt8]) -> [UInt8] { bigEndian(UInt32(bytes.count)) + bytes }
        func bigEndian(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
        let keyByteCount = encryption.keyLength.byteCount
        let otherInfo = lengthPrefixed(Array(encryption.rawValue.utf8)) + lengthPrefixed(partyUInfo ?? [])
            + lengthPrefixed(partyVInfo ?? []) + bigEndian(UInt32(8 * keyByteCount))
        return try ConcatKDF.deriveKey(sharedSecret: sharedSecret, otherInfo: otherInfo, outputByteCount: keyByteCount)
    }
}
