/// Which side of an ISO/IEC 18013-5 session this is: the mdoc (holder) or the mdoc reader.
public enum SessionRole: String, Sendable, Hashable {
    /// The mdoc (holder) side.
    case mdoc
    /// The mdoc reader side.
    case reader

    /// The 8-byte identifier that starts every IV this side encrypts with (18013-5 9.1.1.5):
    /// all zero for the reader, `00 00 00 00 00 00 00 01` for the mdoc.
    public var identifier: [UInt8] {
        switch self {
        case .reader: return [0, 0, 0, 0, 0, 0, 0, 0]
        case .mdoc: return [0, 0, 0, 0, 0, 0, 0, 1]
        }
    }

    /// The other side.
    public var peer: SessionRole {
        self == .mdoc ? .reader : .mdoc
    }
}
