/// The bounds the decoder enforces on untrusted input (docs/architecture.md rule 3 and 4): how deep items may
/// nest, how many items one message may hold, and how large the message may be.
///
/// Every ISO/IEC 18013-5 message fits far inside ``default``. Callers that read a known, smaller
/// message (a SessionEstablishment, a DeviceEngagement) may pass tighter limits.
public struct CBORLimits: Sendable, Hashable {
    /// The largest number of containers (arrays, maps, tags and indefinite-length strings) that
    /// may be open at the same time while decoding.
    public var maximumDepth: Int
    /// The largest number of data items in one input. Every head counts once: integers, strings
    /// (each chunk of an indefinite-length string too), arrays, maps, each key and each value,
    /// tags, simple values and floats.
    public var maximumItemCount: Int
    /// The largest input, in bytes.
    public var maximumInputSize: Int

    /// Limits tighter (or looser) than ``default``, for a caller that knows the message it reads.
    public init(maximumDepth: Int, maximumItemCount: Int, maximumInputSize: Int) {
        self.maximumDepth = maximumDepth
        self.maximumItemCount = maximumItemCount
        self.maximumInputSize = maximumInputSize
    }

    /// 32 levels. The deepest ISO/IEC 18013-5 structure, a DeviceResponse
    /// (`documents[0].issuerSigned.issuerAuth[1][33]...`) or a SessionTranscript, nests under 10
    /// levels; embedded items (tag 24) are decoded separately and start again at zero. 32 leaves
    /// room for issuer-defined element values while keeping every recursive walk over a decoded
    /// value (equality, hashing, encoding, printing) shallow.
    public static let defaultMaximumDepth = 32

    /// 65,536 items. A DeviceResponse carrying every mDL, AAMVA and PID data element of several
    /// documents holds a few thousand items (element values sit in IssuerSignedItemBytes, one byte
    /// string each). The limit bounds the decoded tree at a few MiB even when a hostile message
    /// packs one item per input byte.
    public static let defaultMaximumItemCount = 65_536

    /// 8 MiB. Above a DeviceResponse that carries a large portrait and biometric templates (the
    /// Annex D response is about 3 KiB, a high-resolution JPEG portrait stays well under 1 MiB),
    /// and below the 10 MB a hostile peer could send to exhaust memory.
    public static let defaultMaximumInputSize = 8 * 1024 * 1024

    /// The limits for any ISO/IEC 18013-5 message.
    public static let `default` = CBORLimits(
        maximumDepth: defaultMaximumDepth,
        maximumItemCount: defaultMaximumItemCount,
        maximumInputSize: defaultMaximumInputSize
    )
}
