/// A problem with a file, standard input or URI handed to a program, before any CBOR is read.
///
/// Equality compares the code only.
public struct InputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure. New codes may be added without breaking callers.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        /// The code's name.
        public var description: String { name }

        /// The file does not exist or cannot be read.
        public static let unreadable = Code("unreadable")
        /// The input holds no bytes.
        public static let empty = Code("empty")
        /// The input is larger than ``InputSource/maximumInputSize``.
        public static let tooLarge = Code("tooLarge")
        /// Text that looks like an `mdoc:` URI, hex or base64url but does not decode as one.
        public static let badEncoding = Code("badEncoding")
        /// The input is of a kind the command cannot use (for example a certificate file that
        /// holds no certificate).
        public static let unsupportedContent = Code("unsupportedContent")
        /// A file holding a private key lets group or others access it (docs/architecture.md rule 8).
        public static let insecurePermissions = Code("insecurePermissions")
        /// A file or directory given as trust anchors holds no usable one: a certificate that
        /// is not a self-signed root (ISO/IEC 18013-5 Annex B), or a private key.
        public static let notATrustAnchor = Code("notATrustAnchor")
    }

    /// What kind of failure this is.
    public var code: Code
    /// Where the input came from: a path, "standard input", or "argument".
    public var source: String
    /// What was wrong.
    public var reason: String

    /// A failure of kind `code` reading `source`.
    public init(_ code: Code, source: String, _ reason: String) {
        self.code = code
        self.source = source
        self.reason = reason
    }

    /// `source: reason`, the one line the programs print.
    public var description: String { "\(source): \(reason)" }

    /// Compares the codes only.
    public static func == (lhs: InputError, rhs: InputError) -> Bool { lhs.code == rhs.code }
    /// Hashes the code only, matching `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
