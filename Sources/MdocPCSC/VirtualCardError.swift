/// Why a virtual card's connection to vpcd failed or ended badly (``VirtualCard``).
public typealias VirtualCardError = MdocError<VirtualCardErrorDomain>

/// The domain of ``VirtualCardError``.
public enum VirtualCardErrorDomain: ErrorDomain {}

extension ErrorKind where Domain == VirtualCardError {
    /// vpcd could not be reached: nothing listens at the address (pcscd not started, or vpcd on
    /// another port), or the connection did not complete in time.
    public static let connectionFailed = Self("connectionFailed")
    /// The connection failed while open (reset by the peer, a read or a write error).
    public static let connectionLost = Self("connectionLost")
    /// A frame with a payload of zero octets, which vpcd never sends.
    public static let emptyFrame = Self("emptyFrame")
    /// A frame longer than the card accepts (``VPICCFrameDecoder/maximumPayloadLength``).
    public static let oversizeFrame = Self("oversizeFrame")
    /// The connection ended inside a frame.
    public static let truncatedFrame = Self("truncatedFrame")
    /// vpcd stopped sending inside a frame for longer than the run's bound
    /// (``VirtualCard/frameInactivityBound`` by default).
    public static let stalledFrame = Self("stalledFrame")
    /// A one-octet payload that is not one of vpcd's controls (``VPICCMessage``).
    public static let unknownControl = Self("unknownControl")
    /// The card's ATR is not 2 to 33 octets (ISO/IEC 7816-3 8.2.1).
    public static let invalidATR = Self("invalidATR")
    /// The handler answered a command with fewer than the 2 octets of a status word, or with
    /// more than a frame carries (``VPICCFrame/maximumPayloadLength``).
    public static let invalidResponse = Self("invalidResponse")
    /// A `vpcd[:HOST:PORT]` address that does not read.
    public static let invalidAddress = Self("invalidAddress")
}
