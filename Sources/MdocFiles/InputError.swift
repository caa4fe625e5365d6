import MdocErrors

/// A problem with a file, standard input or URI handed to a program, before any CBOR is read.
///
/// Equality compares the code only.
public typealias InputError = MdocError<InputErrorDomain>

/// The domain of ``InputError``: its errors name the input, a path, "standard input" or
/// "argument", and print `source: reason`.
public enum InputErrorDomain: SourcedErrorDomain {}

extension ErrorKind where Domain == InputError {
    /// The file does not exist or cannot be read.
    public static let unreadable = Self("unreadable")
    /// The input holds no bytes.
    public static let empty = Self("empty")
    /// The input is larger than ``InputSource/maximumInputSize``.
    public static let tooLarge = Self("tooLarge")
    /// Text that looks like an `mdoc:` URI, hex or base64url but does not decode as one.
    public static let badEncoding = Self("badEncoding")
    /// The input is of a kind the command cannot use (for example a certificate file that
    /// holds no certificate).
    public static let unsupportedContent = Self("unsupportedContent")
    /// A file holding a private key lets group or others access it (docs/architecture.md rule 8).
    public static let insecurePermissions = Self("insecurePermissions")
    /// A file or directory given as trust anchors holds no usable one: a certificate that
    /// is not a self-signed root (ISO/IEC 18013-5 Annex B), or a private key.
    public static let notATrustAnchor = Self("notATrustAnchor")
}
