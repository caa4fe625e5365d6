import MdocCBOR
import MdocCrypto

/// The `dcapi` Handover of ISO/IEC TS 18013-7 Annex C: the Handover of a request made through
/// the W3C Digital Credentials API with the protocol `org-iso-mdoc`, whose response is encrypted
/// with HPKE to the `recipientPublicKey` of its EncryptionInfo.
///
/// ```
/// dcapiHandover = ["dcapi", dcapiInfoHash]
/// dcapiInfoHash = SHA-256(cbor(dcapiInfo))
/// dcapiInfo = [Base64EncryptionInfo, SerializedOrigin]
/// ```
/// `Base64EncryptionInfo` is the `encryptionInfo` member of the request exactly as sent (the
/// base64url text without padding, not the decoded EncryptionInfo), `SerializedOrigin` the
/// request's origin as the platform asserts it (the ASCII serialisation of the HTML Standard).
public struct DCAPIHandover: OnlineHandover, Hashable {
    /// The first element of the Handover.
    public static let identifier = "dcapi"

    /// The request's `encryptionInfo`, the base64url text as sent.
    public let encryptionInfo: String
    /// The serialised origin of the request (`https://verifier.example`).
    public let origin: String

    /// The Handover of a request that carried `encryptionInfo` from `origin`.
    public init(encryptionInfo: String, origin: String) {
        self.encryptionInfo = encryptionInfo
        self.origin = origin
    }

    /// `dcapiInfo = [Base64EncryptionInfo, SerializedOrigin]`.
    public var info: CBOR {
        .array([.textString(encryptionInfo), .textString(origin)])
    }

    /// `dcapiInfoHash`: SHA-256 of the encoded ``info``.
    public var infoHash: [UInt8] {
        DigestAlgorithm.sha256.hash(info.encoded())
    }

    public var cbor: CBOR {
        .array([.textString(Self.identifier), .byteString(infoHash)])
    }
}
