import Logging
import NIOCore

/// What the GATT client of an ISO/IEC 18013-5 session receives from the server, whatever carries
/// the notifications (the toolkit's GATT client, or bluetoothd's signals): State 0x02 ends the
/// session (8.3.3.1.1.5), Server2Client chunks are joined into messages (8.3.3.1.1.6), and the
/// results wait in order until the session asks for them.
package struct MdocClientInbox {
    /// The session's events, in arrival order.
    package let events: ReceiveQueue<MdocTransportEvent>
    /// Joins Server2Client chunks.
    package var reassembler: MessageReassembler
    /// Told of each Server2Client chunk as it arrives.
    package let inactivity: InactivityWatch

    /// An inbox on `eventLoop` for a link with ATT_MTU `mtu`, telling `inactivity` of each chunk.
    package init(on eventLoop: any EventLoop, mtu: Int, inactivity: InactivityWatch) {
        events = ReceiveQueue(on: eventLoop, limit: MdocGATTClientTransport.maximumQueuedEvents, itemName: "messages")
        reassembler = MessageReassembler(mtu: mtu)
        self.inactivity = inactivity
    }

    /// Takes a notification of State (`onState`) or of Server2Client. Returns false when the
    /// chunk broke the reassembly limits: the session has then failed with that error and the
    /// link should be closed.
    package mutating func notified(_ value: [UInt8], onState: Bool, logger: Logger) -> Bool {
        if onState {
            logger.debug("State notified by the server", metadata: ["value": "\(value.map { String($0, radix: 16) })"])
            if value == [MdocGATTProfile.stateEnd] { events.append(.ended) }
            return true
        }
        inactivity.chunkArrived()
        do {
            if let message = try reassembler.append(value) {
                logger.debug("received a message on Server2Client", metadata: ["bytes": "\(message.count)"])
                events.append(.message(message))
            }
            return true
        } catch {
            events.fail(error)
            return false
        }
    }
}
