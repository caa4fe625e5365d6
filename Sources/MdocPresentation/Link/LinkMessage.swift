#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One message of a live session as it went over the link: SessionEstablishment or SessionData
/// (ISO/IEC 18013-5 9.1.1.4), the exact bytes reassembled from its chunks (8.3.3.1.1.6), which
/// way it went and when. A driver keeps them so that a session can be captured and verified
/// again offline from the bytes that were really exchanged.
public struct LinkMessage: Sendable, Hashable {
    /// Which way a message went.
    public enum Direction: String, Sendable, Hashable, CaseIterable {
        /// From this side to the peer.
        case sent
        /// From the peer to this side.
        case received
    }

    /// Which way the message went.
    public var direction: Direction
    /// The message, byte for byte.
    public var bytes: [UInt8]
    /// When it was sent, or when its last chunk arrived.
    public var time: Date

    /// A message that went `direction` at `time`.
    public init(direction: Direction, bytes: [UInt8], time: Date) {
        self.direction = direction
        self.bytes = bytes
        self.time = time
    }
}
