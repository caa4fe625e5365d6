import MdocCBOR
import MdocCrypto
import MdocText

/// `EncryptedResponse` of ISO/IEC TS 18013-7 Annex C: the wallet's answer to an `org-iso-mdoc`
/// request, its DeviceResponse sealed with HPKE to the request's `recipientPublicKey`.
///
/// ```
/// EncryptedResponse = ["dcapi", EncryptedResponseData]
/// EncryptedResponseData = {"enc": bstr, "cipherText": bstr}
/// ```
/// The Digital Credentials API returns it as `{"response": base64url(EncryptedResponse)}`.
/// Reading bounds the text by ``DCAPILimits/maximumResponseByteCount`` and the `cipherText` by
/// MdocCrypto's `HPKE.maximumPlaintextByteCount` and the AEAD tag before anything is decrypted,
/// and refuses a `cipherText` shorter than the tag.
public struct EncryptedResponse: Sendable, Equatable {
    /// `enc` and `cipherText`.
    public let sealed: HPKESealedMessage

    /// The response carrying `sealed`.
    public init(sealed: HPKESealedMessage) {
        self.sealed = sealed
    }

    /// Reads the response object `{"response": base64url}`.
    public init(json bytes: [UInt8]) throws(OnlineError) {
        let object = try DCAPIObject(bytes, name: "response", limit: DCAPILimits.maximumResponseByteCount, code: .malformedResponse)
        try self.init(encoded: try object.bytes("response"))
    }

    /// Reads an encoded EncryptedResponse.
    public init(encoded bytes: [UInt8]) throws(OnlineError) {
        let enc: [UInt8]
        let cipherText: [UInt8]
        do {
            (enc, cipherText) = try Self.decode(bytes)
        } catch {
            throw OnlineError(.malformedResponse, "not an EncryptedResponse (ISO/IEC TS 18013-7 Annex C): \(error)")
        }
        let longest = HPKE.maximumPlaintextByteCount + AESGCM.tagByteCount
        guard cipherText.count <= longest else {
            throw OnlineError(
                .inputTooLarge, "the response cipherText has \(cipherText.count) bytes, more than the limit of \(longest) (the largest DeviceResponse and its tag)")
        }
        guard cipherText.count >= AESGCM.tagByteCount else {
            throw OnlineError(
                .malformedResponse, "the response cipherText has \(cipherText.count) bytes, fewer than the \(AESGCM.tagByteCount) of its tag: it is truncated")
        }
        sealed = HPKESealedMessage(encapsulatedKey: enc, ciphertext: cipherText)
    }

    /// The decoding limits of an EncryptedResponse: the default ones, but room for a
    /// `cipherText` one byte over its limit and the rest of the structure, so that such a
    /// cipherText is refused by its own check, with its own message.
    private static let limits = CBORLimits(
        maximumDepth: CBORLimits.defaultMaximumDepth, maximumItemCount: CBORLimits.defaultMaximumItemCount,
        maximumInputSize: HPKE.maximumPlaintextByteCount + AESGCM.tagByteCount + 1024)

    /// `enc` and `cipherText` of an encoded EncryptedResponse.
    private static func decode(_ bytes: [UInt8]) throws(CBORError) -> ([UInt8], [UInt8]) {
        let (data, dataPath) = try EncryptionInfo.dcapiMap(of: CBOR.decode(bytes, limits: limits), structure: "EncryptedResponse")
        return (
            try data.required("enc", at: dataPath).bytes(at: dataPath.appending(key: "enc")),
            try data.required("cipherText", at: dataPath).bytes(at: dataPath.appending(key: "cipherText"))
        )
    }

    /// `["dcapi", {"enc": enc, "cipherText": cipherText}]`.
    public var cbor: CBOR {
        var data = CBORMap()
        data.append("enc", .byteString(sealed.encapsulatedKey))
        data.append("cipherText", .byteString(sealed.ciphertext))
        return .array([.textString(EncryptionInfo.identifier), .map(data)])
    }

    /// The response object `{"response": base64url(EncryptedResponse)}`.
    public var json: JSONValue {
        .object([("response", .string(Base64URL.encode(cbor.encoded())))])
    }
}
