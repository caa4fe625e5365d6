import MdocErrors

/// A failure to build a DeviceResponse (ISO/IEC 18013-5 8.3.2.1.2.2, 9.1.3): the mdoc cannot
/// authenticate a document it was asked to return.
///
/// Equality compares the code only.
public typealias PresentationError = MdocError<PresentationErrorDomain>

/// The domain of ``PresentationError``.
public enum PresentationErrorDomain: ErrorDomain {}

extension ErrorKind where Domain == PresentationError {
    /// The device key can neither sign (it is an X25519 or X448 key) nor MAC with this
    /// reader's key (another curve), or the policy asks for a signature it cannot make.
    public static let deviceAuthenticationUnavailable = Self("deviceAuthenticationUnavailable")
    /// Key agreement, key derivation or signing failed inside the crypto library, for
    /// example because the reader's ephemeral key is not a valid point.
    public static let deviceAuthenticationFailed = Self("deviceAuthenticationFailed")
}
