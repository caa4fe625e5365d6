import Glibc
import Synchronization

/// One descriptor carrying packets (ATT PDUs of the sim bearer, HCI packets to a controller)
/// and the dedicated thread that does all its blocking work: poll(2) on the descriptor and a
/// wake-up socket pair, non-blocking reads and writes. Async callers only queue work and wait on
/// continuations, so the Swift cooperative pool never blocks.
///
/// The thread alone closes the descriptors, after it stopped using them: when the link was
/// closed locally, the peer closed it, or it failed.
final class PacketIOThread: Sendable {
    /// The most received packets held until `receive()` takes them, 64. Beyond that the thread
    /// stops reading, the descriptor's buffer fills and the peer's writes wait: flow control,
    /// instead of unbounded memory.
    static let receiveQueueLimit = 64
    /// How many octets one read of a byte stream takes at most.
    static let streamReadSize = 4096

    private typealias Receiver = CheckedContinuation<Result<[UInt8]?, BLEError>, Never>
    private typealias Sender = CheckedContinuation<Result<Void, BLEError>, Never>

    private struct Outgoing: Sendable {
        let packet: [UInt8]
        /// Who waits for the write; nil for packets queued without waiting.
        let sender: Sender?
    }

    private struct State: Sendable {
        var inbox: [[UInt8]] = []
        var receivers: [Receiver] = []
        var outbox: [Outgoing] = []
        /// Octets of `outbox.first` already written (byte streams write in pieces).
        var written = 0
        /// `close()` was called: receivers get nil, the thread stops.
        var isClosed = false
        /// The link ended (peer closed: success, or failed); receivers get it after the inbox.
        var end: Result<Void, BLEError>?
        /// The thread still owns the descriptors; wake-ups are written only while it does.
        var isRunning = true
    }

    /// How packets are delimited on the descriptor.
    let framing: PacketFraming
    /// What the descriptor is, for messages: "the sim link", "the HCI transport tcp:…".
    let name: String
    private let descriptor: Int32
    /// Sockets use send(2)/recv(2) with MSG_NOSIGNAL; other descriptors (serial lines)
    /// read(2)/write(2).
    private let isSocket: Bool
    private let wakeReceiver: Int32
    private let wakeSender: Int32
    private let state = Mutex(State())

    /// Takes ownership of the open, non-blocking `descriptor` and starts its thread; on
    /// failure the descriptor is closed.
    init(descriptor: Int32, framing: PacketFraming, name: String) throws(BLEError) {
        self.framing = framing
        self.name = name
        self.descriptor = descriptor
        var status = stat()
        isSocket = fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFSOCK
        var pair: [Int32] = [-1, -1]
        let type = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        guard socketpair(AF_UNIX, type, 0, &pair) == 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw SystemCall.failure("socketpair", code, "creating the wake-up channel of \(name)")
        }
        wakeReceiver = pair[0]
        wakeSender = pair[1]
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self)
        let result = pthread_create(&thread, nil, { argument in
            guard let argument else { return nil }
            Unmanaged<PacketIOThread>.fromOpaque(argument).takeRetainedValue().run()
            return nil
        }, context.toOpaque())
        guard result == 0 else {
            context.release()
            closeDescriptors()
            throw SystemCall.failure("pthread_create", result, "starting the I/O thread of \(name)")
        }
        pthread_detach(thread)
    }

    // MARK: Called from any task

    /// Queues `packet` and waits until the thread wrote it.
    func send(_ packet: [UInt8]) async throws(BLEError) {
        let result = await withCheckedContinuation { (sender: Sender) in
            if let refused = queue(packet, sender: sender) { sender.resume(returning: .failure(refused)) }
        }
        try result.get()
    }

    /// Queues `packet` without waiting for the write; packets leave in the order queued.
    /// Throws `linkClosed` once the link is closed; a later write failure ends the link, which
    /// ``receive()`` reports.
    func enqueue(_ packet: [UInt8]) throws(BLEError) {
        if let refused = queue(packet, sender: nil) { throw refused }
    }

    /// The next received packet; nil after `close()` or once the peer closed and the packets it
    /// sent before were taken; the link's error once it failed.
    func receive() async throws(BLEError) -> [UInt8]? {
        let result = await withCheckedContinuation { (receiver: Receiver) in
            let ready = state.withLock { state -> Result<[UInt8]?, BLEError>? in
                if state.isClosed { return .success(nil) }
                if !state.inbox.isEmpty {
                    if state.inbox.count == Self.receiveQueueLimit { wake(state) }
                    return .success(state.inbox.removeFirst())
                }
                if let end = state.end { return end.map { nil } }
                state.receivers.append(receiver)
                return nil
            }
            if let ready { receiver.resume(returning: ready) }
        }
        return try result.get()
    }

    /// Stops the link: waiting receivers get nil at once, waiting senders fail with
    /// `linkClosed`, the thread closes the descriptors. Idempotent.
    func close() {
        let receivers = state.withLock { state -> [Receiver] in
            guard !state.isClosed else { return [] }
            state.isClosed = true
            state.inbox = []
            wake(state)
            defer { state.receivers = [] }
            return state.receivers
        }
        for receiver in receivers { receiver.resume(returning: .success(nil)) }
    }

    /// How many received packets wait for `receive()` (for tests of the flow control).
    var bufferedCount: Int { state.withLock { $0.inbox.count } }

    /// Appends `packet` to the outbox; the error to give the sender when the link is closed.
    private func queue(_ packet: [UInt8], sender: Sender?) -> BLEError? {
        state.withLock { state -> BLEError? in
            if state.isClosed || state.end != nil {
                return BLEError(.linkClosed, "\(name) is closed; a packet of \(packet.count) bytes was not sent")
            }
            state.outbox.append(Outgoing(packet: packet, sender: sender))
            wake(state)
            return nil
        }
    }

    /// Wakes the thread from poll(2); only while it owns the descriptors. Called with the lock held.
    private func wake(_ state: borrowing State) {
        guard state.isRunning else { return }
        var byte: UInt8 = 1
        _ = Glibc.send(wakeSender, &byte, 1, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL))
    }

    // MARK: The thread

    private func run() {
        var reader = Reader(framing: framing)
        while true {
            let (wantsRead, wantsWrite, isClosed) = state.withLock { state in
                (state.inbox.count < Self.receiveQueueLimit, !state.outbox.isEmpty, state.isClosed)
            }
            if isClosed { return finish(.success(())) }
            var events: Int16 = 0
            if wantsRead { events |= Int16(POLLIN) }
            if wantsWrite { events |= Int16(POLLOUT) }
            var descriptors = [
                pollfd(fd: events == 0 ? -1 : descriptor, events: events, revents: 0),
                pollfd(fd: wakeReceiver, events: Int16(POLLIN), revents: 0),
            ]
            guard poll(&descriptors, 2, -1) >= 0 else {
                let code = errno
                if code == EINTR { continue }
                return finish(.failure(SystemCall.failure("poll", code, "waiting on \(name)")))
            }
            if descriptors[1].revents != 0 { drainWakeUps() }
            let ready = descriptors[0].revents
            if ready & Int16(POLLOUT | POLLHUP | POLLERR) != 0, wantsWrite, let end = writeQueued() {
                return finish(end)
            }
            if ready & Int16(POLLIN | POLLHUP | POLLERR) != 0, wantsRead, let end = readAvailable(&reader) {
                return finish(end)
            }
        }
    }

    /// Writes queued packets until the descriptor would block; the link's end when it broke.
    private func writeQueued() -> Result<Void, BLEError>? {
        while let (packet, offset) = state.withLock({ state in state.outbox.first.map { ($0.packet, state.written) } }) {
            let count = packet.withUnsafeBytes { bytes in
                write(bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
            }
            if count < 0 {
                let code = errno
                switch code {
                case EINTR: continue
                case EAGAIN, EWOULDBLOCK: return nil
                case EPIPE, ECONNRESET, ENOTCONN: return .success(())
                default: return .failure(SystemCall.failure(isSocket ? "send" : "write", code,
                                                            "sending \(packet.count) bytes on \(name)"))
                }
            }
            if case .datagram = framing, count != packet.count {
                return .failure(BLEError(.systemCall, "\(name) took \(count) of a \(packet.count)-byte packet"))
            }
            let sender = state.withLock { state -> Sender?? in
                state.written += count
                guard state.written == packet.count else { return .none }
                state.written = 0
                return .some(state.outbox.removeFirst().sender)
            }
            if case .some(let waiting?) = sender { waiting.resume(returning: .success(())) }
        }
        return nil
    }

    /// Reads packets until the descriptor would block or the inbox is full; the link's end when
    /// the peer closed it or sent something malformed.
    private func readAvailable(_ reader: inout Reader) -> Result<Void, BLEError>? {
        while state.withLock({ $0.inbox.count < Self.receiveQueueLimit }) {
            let count = reader.buffer.withUnsafeMutableBytes { read(into: $0.baseAddress, $0.count) }
            if count < 0 {
                let code = errno
                switch code {
                case EINTR: continue
                case EAGAIN, EWOULDBLOCK: return nil
                case ECONNRESET, ENOTCONN: return .success(())
                default: return .failure(SystemCall.failure(isSocket ? "recv" : "read", code, "receiving on \(name)"))
                }
            }
            if count == 0 { return .success(()) }
            let packets: [[UInt8]]
            do {
                packets = try reader.packets(count: count, name: name)
            } catch {
                return .failure(error)
            }
            for packet in packets { deliver(packet) }
        }
        return nil
    }

    private func deliver(_ packet: [UInt8]) {
        let receiver = state.withLock { state -> Receiver? in
            if state.receivers.isEmpty {
                state.inbox.append(packet)
                return nil
            }
            return state.receivers.removeFirst()
        }
        receiver?.resume(returning: .success(packet))
    }

    private func write(_ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
        isSocket
            ? Glibc.send(descriptor, bytes, count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL))
            : Glibc.write(descriptor, bytes, count)
    }

    private func read(into bytes: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        isSocket ? Glibc.recv(descriptor, bytes, count, Int32(MSG_DONTWAIT)) : Glibc.read(descriptor, bytes, count)
    }

    private func drainWakeUps() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while bytes.withUnsafeMutableBytes({ Glibc.recv(wakeReceiver, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }) > 0 {}
    }

    /// Ends the link with `end` (kept if it already ended): the descriptors are closed under
    /// the lock, so no wake-up is written to a reused descriptor; waiting senders fail with
    /// `linkClosed`, waiting receivers get nil or the error.
    private func finish(_ end: Result<Void, BLEError>) {
        let (senders, receivers, outcome) = state.withLock { state in
            if state.end == nil { state.end = end }
            state.isRunning = false
            closeDescriptors()
            defer {
                state.outbox = []
                state.receivers = []
            }
            return (state.outbox.compactMap(\.sender), state.receivers, state.end ?? end)
        }
        let closed = BLEError(.linkClosed, "\(name) closed before the packet was sent")
        for sender in senders { sender.resume(returning: .failure(closed)) }
        for receiver in receivers { receiver.resume(returning: outcome.map { nil }) }
    }

    private func closeDescriptors() {
        Glibc.close(descriptor)
        Glibc.close(wakeReceiver)
        Glibc.close(wakeSender)
    }

    /// The read buffer and, for byte streams, the H4 parser; owned by the thread.
    private struct Reader {
        let framing: PacketFraming
        var buffer: [UInt8]
        var parser = H4PacketParser()

        init(framing: PacketFraming) {
            self.framing = framing
            switch framing {
            case .datagram(let maximumSize):
                // One octet more than allowed, so an oversized datagram shows as too long.
                buffer = [UInt8](repeating: 0, count: maximumSize + 1)
            case .h4Stream:
                buffer = [UInt8](repeating: 0, count: PacketIOThread.streamReadSize)
            }
        }

        /// The packets the `count` octets just read into `buffer` complete.
        mutating func packets(count: Int, name: String) throws(BLEError) -> [[UInt8]] {
            switch framing {
            case .datagram(let maximumSize):
                guard count <= maximumSize else {
                    throw BLEError(.pduTooLarge,
                                   "the peer on \(name) sent a packet of more than \(maximumSize) bytes, the link's maximum; the link is closed")
                }
                return [Array(buffer[0..<count])]
            case .h4Stream:
                return try parser.append(buffer[0..<count])
            }
        }
    }
}
