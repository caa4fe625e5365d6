import MdocCBOR
import MdocCOSE
import MdocCrypto

/// `EncryptionInfo` of ISO/IEC TS 18013-7 Annex C: what an `org-iso-mdoc` request tells the
/// wallet about the encryption of its response, the verifier's nonce and the public key the
/// DeviceResponse is sealed to with HPKE.
///
/// ```
/// EncryptionInfo = ["dcapi", EncryptionParameters]
/// EncryptionParameters = {"nonce": bstr, "recipientPublicKey": COSE_Key}
/// ```
/// The request carries it as base64url text, and that text, as sent, goes into the
/// ``DCAPIHandover``. Reading refuses a nonce shorter than ``DCAPILimits/minimumNonceByteCount``
/// or longer than ``DCAPILimits/maximumNonceByteCount``, and a key that is not a public P-256 key
/// (the curve of the HPKE suite Annex C names); other members of EncryptionParameters are
/// ignored.
public struct EncryptionInfo: Sendable, Equatable {
    /// The first element: `"dcapi"`.
    public static let identifier = "dcapi"

    /// `nonce`: the verifier's random bytes.
    public let nonce: [UInt8]
    /// `recipientPublicKey`: the P-256 key the response is sealed to.
    public let recipientPublicKey: PublicKey

    /// The EncryptionInfo of `nonce` and `recipientPublicKey`, checked as a received one is.
    public init(nonce: [UInt8], recipientPublicKey: PublicKey) throws(OnlineError) {
        try Self.check(nonce: nonce)
        guard recipientPublicKey.curve == HPKECipherSuite.p256SHA256AES128GCM.curve else {
            throw OnlineError(
                .malformedEncryptionInfo, "the recipientPublicKey is on \(recipientPublicKey.curve); Annex C's HPKE suite needs P-256")
        }
        self.nonce = nonce
        self.recipientPublicKey = recipientPublicKey
    }

    /// Reads the base64url text of a request's `encryptionInfo` member.
    public init(base64URL text: String) throws(OnlineError) {
        guard !text.contains("="), let bytes = Base64URL.decode(text) else {
            throw OnlineError(.malformedEncryptionInfo, "encryptionInfo is not base64url without padding")
        }
        try self.init(encoded: bytes)
    }

    /// Reads an encoded EncryptionInfo.
    public init(encoded bytes: [UInt8]) throws(OnlineError) {
        let (nonce, key): ([UInt8], PublicKey)
        do {
            (nonce, key) = try Self.decode(bytes)
        } catch {
            throw OnlineError(.malformedEncryptionInfo, "not an EncryptionInfo (ISO/IEC TS 18013-7 Annex C): \(error)")
        }
        try self.init(nonce: nonce, recipientPublicKey: key)
    }

    /// The map of `item`, the `["dcapi", {...}]` that EncryptionInfo and the encrypted response
    /// of Annex C both are, and its path; `structure` names the structure in errors.
    static func dcapiMap(of item: CBOR, structure: String) throws(CBORError) -> (CBORMap, CBORPath) {
        let array = try item.array(at: .root)
        guard array.count == 2 else {
            throw CBORError(.invalidValue, "\(structure) has 2 elements, this one \(array.count)", path: .root)
        }
        let identifier = try array[0].text(at: .root.appending(index: 0))
        guard identifier == Self.identifier else {
            throw CBORError(
                .invalidValue, "\(structure) starts with \"\(UntrustedText.escaped(identifier))\", not \"\(Self.identifier)\"",
                path: .root.appending(index: 0))
        }
        let path = CBORPath.root.appending(index: 1)
        return (try array[1].map(at: path), path)
    }

    /// The nonce and key of an encoded EncryptionInfo, before their checks.
    private static func decode(_ bytes: [UInt8]) throws(CBORError) -> ([UInt8], PublicKey) {
        let (parameters, parametersPath) = try Self.dcapiMap(of: CBOR.decode(bytes), structure: "EncryptionInfo")
        let nonce = try parameters.required("nonce", at: parametersPath).bytes(at: parametersPath.appending(key: "nonce"))
        let keyPath = parametersPath.appending(key: "recipientPublicKey")
        let coseKey = try COSEKey(cbor: try parameters.required("recipientPublicKey", at: parametersPath), at: keyPath)
        guard coseKey.d == nil else {
            throw CBORError(.invalidValue, "the recipientPublicKey carries a private key (d)", path: keyPath)
        }
        do {
            return (nonce, try coseKey.publicKey())
        } catch {
            throw CBORError(.invalidValue, "the recipientPublicKey is not a public key: \(error.reason)", path: keyPath)
        }
    }

    /// `["dcapi", {"nonce": nonce, "recipientPublicKey": COSE_Key}]`.
    public var cbor: CBOR {
        var parameters = CBORMap()
        parameters.append("nonce", .byteString(nonce))
        parameters.append("recipientPublicKey", COSEKey(publicKey: recipientPublicKey).cbor)
        return .array([.textString(Self.identifier), .map(parameters)])
    }

    /// The base64url text (without padding) of the encoded EncryptionInfo, as a request carries it.
    public var base64URL: String {
        Base64URL.encode(cbor.encoded())
    }

    private static func check(nonce: [UInt8]) throws(OnlineError) {
        guard nonce.count >= DCAPILimits.minimumNonceByteCount, nonce.count <= DCAPILimits.maximumNonceByteCount else {
            throw OnlineError(
                .malformedEncryptionInfo,
                "the nonce has \(nonce.count) bytes; Annex C asks for at least \(DCAPILimits.minimumNonceByteCount), and at most \(DCAPILimits.maximumNonceByteCount) are read")
        }
    }
}
