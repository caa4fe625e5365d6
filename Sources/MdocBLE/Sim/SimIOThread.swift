import Glibc
import Synchronization

/// The socket of one ``SimBearer`` and the dedicated thread that does all its blocking work:
/// poll(2) on the socket and a wake-up socket pair, non-blocking send and receive. Async callers
/// only queue work and wait on continuations, so the Swift cooperative pool never blocks.
///
/// The thread alone closes the descriptors, after it stopped using them: when the link was
/// closed locally, the peer closed it, or it failed.
final class SimIOThread: Sendable {
    /// The most received PDUs held until `receive()` takes them, 64 (at most 33 KiB). Beyond
    /// that the thread stops reading, the socket buffer fills and the peer's sends wait: flow
    /// control like L2CAP's, instead of unbounded memory.
    static let receiveQueueLimit = 64

    private typealias Receiver = CheckedContinuation<Result<[UInt8]?, BLEError>, Never>
    private typealias Sender = CheckedContinuation<Result<Void, BLEError>, Never>

    private struct State: Sendable {
        var inbox: [[UInt8]] = []
        var receivers: [Receiver] = []
        var outbox: [(pdu: [UInt8], sender: Sender)] = []
        /// `close()` was called: receivers get nil, the thread stops.
        var isClosed = false
        /// The link ended (peer closed: success, or failed); receivers get it after the inbox.
        var end: Result<Void, BLEError>?
        /// The thread still owns the descriptors; wake-ups are written only while it does.
        var isRunning = true
    }

    let maximumPDUSize: Int
    private let socket: Int32
    private let wakeReceiver: Int32
    private let wakeSender: Int32
    private let state = Mutex(State())

    /// Takes ownership of the connected socket `socket` and starts its thread; on failure the
    /// socket is closed.
    init(socket: Int32, maximumPDUSize: Int) throws(BLEError) {
        self.maximumPDUSize = maximumPDUSize
        self.socket = socket
        var pair: [Int32] = [-1, -1]
        let type = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        guard socketpair(AF_UNIX, type, 0, &pair) == 0 else {
            let code = errno
            Glibc.close(socket)
            throw SimSocket.failure("socketpair", code, "creating the sim bearer's wake-up channel")
        }
        wakeReceiver = pair[0]
        wakeSender = pair[1]
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self)
        let result = pthread_create(&thread, nil, { argument in
            guard let argument else { return nil }
            Unmanaged<SimIOThread>.fromOpaque(argument).takeRetainedValue().run()
            return nil
        }, context.toOpaque())
        guard result == 0 else {
            context.release()
            closeDescriptors()
            throw SimSocket.failure("pthread_create", result, "starting the sim bearer's I/O thread")
        }
        pthread_detach(thread)
    }

    // MARK: Called from any task

    /// Queues `pdu` and waits until the thread wrote it to the socket.
    func send(_ pdu: [UInt8]) async throws(BLEError) {
        let result = await withCheckedContinuation { (sender: Sender) in
            let refused = state.withLock { state -> BLEError? in
                if state.isClosed || state.end != nil {
                    return BLEError(.linkClosed, "the sim link is closed; a PDU of \(pdu.count) bytes was not sent")
                }
                state.outbox.append((pdu, sender))
                wake(state)
                return nil
            }
            if let refused { sender.resume(returning: .failure(refused)) }
        }
        try result.get()
    }

    /// The next received PDU; nil after `close()` or once the peer closed and the PDUs it sent
    /// before were taken; the link's error once it failed.
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

    /// How many received PDUs wait for `receive()` (for tests of the flow control).
    var bufferedCount: Int { state.withLock { $0.inbox.count } }

    /// Wakes the thread from poll(2); only while it owns the descriptors. Called with the lock held.
    private func wake(_ state: borrowing State) {
        guard state.isRunning else { return }
        var byte: UInt8 = 1
        _ = Glibc.send(wakeSender, &byte, 1, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL))
    }

    // MARK: The thread

    private func run() {
        var buffer = [UInt8](repeating: 0, count: maximumPDUSize + 1)
        while true {
            let (wantsRead, wantsWrite, isClosed) = state.withLock { state in
                (state.inbox.count < Self.receiveQueueLimit, !state.outbox.isEmpty, state.isClosed)
            }
            if isClosed { return finish(.success(())) }
            var events: Int16 = 0
            if wantsRead { events |= Int16(POLLIN) }
            if wantsWrite { events |= Int16(POLLOUT) }
            var descriptors = [
                pollfd(fd: events == 0 ? -1 : socket, events: events, revents: 0),
                pollfd(fd: wakeReceiver, events: Int16(POLLIN), revents: 0),
            ]
            guard poll(&descriptors, 2, -1) >= 0 else {
                let code = errno
                if code == EINTR { continue }
                return finish(.failure(SimSocket.failure("poll", code, "waiting on the sim link")))
            }
            if descriptors[1].revents != 0 { drainWakeUps() }
            let ready = descriptors[0].revents
            if ready & Int16(POLLOUT | POLLHUP | POLLERR) != 0, wantsWrite, let end = writeQueued() {
                return finish(end)
            }
            if ready & Int16(POLLIN | POLLHUP | POLLERR) != 0, wantsRead, let end = readAvailable(into: &buffer) {
                return finish(end)
            }
        }
    }

    /// Writes queued PDUs until the socket would block; the link's end when it broke.
    private func writeQueued() -> Result<Void, BLEError>? {
        while let pdu = state.withLock({ $0.outbox.first?.pdu }) {
            let written = pdu.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL)) }
            if written < 0 {
                let code = errno
                switch code {
                case EINTR: continue
                case EAGAIN, EWOULDBLOCK: return nil
                case EPIPE, ECONNRESET, ENOTCONN: return .success(())
                default: return .failure(SimSocket.failure("send", code, "sending a PDU of \(pdu.count) bytes on the sim link"))
                }
            }
            let sender = state.withLock { $0.outbox.removeFirst().sender }
            sender.resume(returning: .success(()))
        }
        return nil
    }

    /// Reads PDUs until the socket would block or the inbox is full; the link's end when the
    /// peer closed it or broke the size limit.
    private func readAvailable(into buffer: inout [UInt8]) -> Result<Void, BLEError>? {
        while state.withLock({ $0.inbox.count < Self.receiveQueueLimit }) {
            let count = buffer.withUnsafeMutableBytes { Glibc.recv(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count < 0 {
                let code = errno
                switch code {
                case EINTR: continue
                case EAGAIN, EWOULDBLOCK: return nil
                case ECONNRESET, ENOTCONN: return .success(())
                default: return .failure(SimSocket.failure("recv", code, "receiving on the sim link"))
                }
            }
            if count == 0 { return .success(()) }
            guard count <= maximumPDUSize else {
                return .failure(BLEError(.pduTooLarge,
                                         "the sim peer sent a PDU of more than \(maximumPDUSize) bytes, the link's maximum; the link is closed"))
            }
            let pdu = Array(buffer[0..<count])
            let receiver = state.withLock { state -> Receiver? in
                if state.receivers.isEmpty {
                    state.inbox.append(pdu)
                    return nil
                }
                return state.receivers.removeFirst()
            }
            receiver?.resume(returning: .success(pdu))
        }
        return nil
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
            return (state.outbox.map(\.sender), state.receivers, state.end ?? end)
        }
        let closed = BLEError(.linkClosed, "the sim link closed before the PDU was sent")
        for sender in senders { sender.resume(returning: .failure(closed)) }
        for receiver in receivers { receiver.resume(returning: outcome.map { nil }) }
    }

    private func closeDescriptors() {
        Glibc.close(socket)
        Glibc.close(wakeReceiver)
        Glibc.close(wakeSender)
    }
}
