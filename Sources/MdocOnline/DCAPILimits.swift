/// The bounds of ISO/IEC TS 18013-7 Annex C (`org-iso-mdoc`) on what is received and on how
/// long a request may be answered: the request and the response are input of a peer's choosing,
/// checked before anything is decoded.
public enum DCAPILimits {
    /// 16 bytes: the shortest EncryptionInfo nonce, the "at least 16 bytes" Annex C asks of it.
    public static let minimumNonceByteCount = 16

    /// 64 bytes: the longest EncryptionInfo nonce read. Annex C sets no upper bound; a nonce is
    /// random bytes, and 64 is four times what it needs.
    public static let maximumNonceByteCount = 64

    /// 16 bytes: the nonce of a request made here.
    public static let nonceByteCount = 16

    /// 1 MiB: the longest request object (`{"deviceRequest", "encryptionInfo"}`) read. A
    /// DeviceRequest signed with a reader chain of three certificates is a few kilobytes.
    public static let maximumRequestByteCount = 1024 * 1024

    /// 12 MiB: the longest response object (`{"response"}`) read. Its cipherText is at most
    /// MdocCrypto's `HPKE.maximumPlaintextByteCount` (8 MiB) and the tag, which base64url makes
    /// 10.7 MiB.
    public static let maximumResponseByteCount = 12 * 1024 * 1024

    /// 64 KiB: the longest verifier's request state read. A state is under 1 KiB.
    public static let maximumStateByteCount = 64 * 1024

    /// 3 levels: the deepest JSON of a request, response or state (an object holding an object
    /// of strings at most).
    public static let maximumJSONDepth = 3

    /// 300 seconds: how long a request may be answered unless its maker says otherwise.
    public static let defaultValidity: Duration = .seconds(300)

    /// 1 second: the shortest validity of a request.
    public static let minimumValidity: Duration = .seconds(1)

    /// 86 400 seconds (one day): the longest validity of a request. A person answers a request
    /// in minutes; a state kept for longer is a private key kept for longer.
    public static let maximumValidity: Duration = .seconds(86_400)
}
