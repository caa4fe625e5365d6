/// A text string a peer sent, kept as received and typed so that it is not shown by mistake as
/// it is: its ``description``, which string interpolation and `print` use, is the text escaped by
/// ``UntrustedText/escaped(_:maximumLength:)``, safe in a terminal; ``value`` is the text as
/// received, for comparing, storing or matching, never for showing unescaped.
///
/// A family name, a document number or an issuing authority of an 18013-5 document is written
/// by whoever made or forged the document; after verification it is authentic, but it is still
/// text from outside that may hold terminal control sequences or bidirectional overrides.
public struct UntrustedString: Sendable, Hashable, CustomStringConvertible {
    /// The text as received; escape it before showing it to a person.
    public let value: String

    /// `value`, as received from a peer.
    public init(_ value: String) {
        self.value = value
    }

    /// The text as it is safe to show: every character a terminal would act on escaped, cut
    /// after ``UntrustedText/maximumLength`` scalars.
    public var description: String {
        UntrustedText.escaped(value)
    }
}
