import MdocPCSC
import NIOCore
import NIOPosix

/// vpcd's side of the vpicc protocol, played by the test: a TCP listener on the loopback whose
/// first connection (the virtual card's) the test drives frame by frame, hostile frames included.
struct StandInVPCD {
    typealias Connection = NIOAsyncChannel<ByteBuffer, ByteBuffer>

    let address: VirtualCard.Address
    private let connections: NIOAsyncChannelInboundStream<Connection>

    /// Runs `body` with a listener on a free port, closed afterwards; `body` accepts one
    /// connection at most.
    static func with<Result: Sendable>(_ body: (StandInVPCD) async throws -> Result) async throws -> Result {
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture { try Connection(wrappingChannelSynchronously: channel) }
            }
        let address = VirtualCard.Address(host: "127.0.0.1", port: server.channel.localAddress?.port ?? 0)
        return try await server.executeThenClose { connections in
            try await body(StandInVPCD(address: address, connections: connections))
        }
    }

    /// Waits for the card's connection and runs `body` on it; the connection closes after.
    func accept(_ body: (inout Frames, NIOAsyncChannelOutboundWriter<ByteBuffer>) async throws -> Void) async throws {
        var iterator = connections.makeAsyncIterator()
        guard let connection = try await iterator.next() else { throw StandInError("the listener closed") }
        try await connection.executeThenClose { inbound, outbound in
            var frames = Frames(iterator: inbound.makeAsyncIterator())
            try await body(&frames, outbound)
        }
    }

    /// The frame of `payload`, as vpcd writes it.
    static func frame(_ payload: [UInt8]) -> ByteBuffer {
        ByteBuffer(bytes: [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)] + payload)
    }

    /// The card's answers, cut into payloads.
    struct Frames {
        var iterator: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
        var held = ByteBuffer()

        /// The next payload; nil when the card closed the connection first.
        mutating func next() async throws -> [UInt8]? {
            while true {
                if let length = held.getInteger(at: held.readerIndex, as: UInt16.self), held.readableBytes >= 2 + Int(length) {
                    held.moveReaderIndex(forwardBy: 2)
                    return held.readBytes(length: Int(length))
                }
                guard var more = try await iterator.next() else { return nil }
                held.writeBuffer(&more)
            }
        }
    }

    struct StandInError: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }
}
