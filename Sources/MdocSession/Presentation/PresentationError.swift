import MdocErrors

/// A failure to build a DeviceResponse (ISO/IEC 18013-5 8.3.2.1.2.2, 9.1.3): the mdoc cannot
/// authenticate a document it was asked to return.
///
/// Equality compares the code only.
public struct PresentationError: CodedError {
    /// The kind of failure. New codes may be added without breaking callers.
    public typealias Code = ErrorKind<PresentationError>

    /// What kind of failure this is; compare this, not the message.
    public var code: Code
    /// What was wrong, for people.
    public var reason: String

    /// A failure of kind `code`, explained by `reason`.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    /// The reason.
    public var description: String { reason }
}

extension ErrorKind where Domain == PresentationError {
    /// The device key can neither sign (it is an X25519 or X448 key) nor MAC with this
    /// reader's key (another curve), or the policy asks for a signature it cannot make.
    public static let deviceAuthenticationUnavailable = Self("deviceAuthenticationUnavailable")
    /// Key agreement, key derivation or signing failed inside the crypto library, for
    /// example because the reader's ephemeral key is not a valid point.
    public static let deviceAuthenticationFailed = Self("deviceAuthenticationFailed")
}
