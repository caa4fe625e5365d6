import CSDBus
import Glibc
import Synchronization

/// A connection to a D-Bus bus through sd-bus (sd-bus(3)), owned by one dedicated thread.
///
/// sd-bus objects are not thread-safe, so every use of the bus happens on that thread: callers
/// queue work and wait on continuations; method handlers and signal handlers are called on the
/// thread, in the order the messages arrived, and must not block. The thread polls the bus and
/// a socket pair that wakes it for queued work (poll(2)).
final class DBusConnection: Sendable {
    /// How long a method call waits for its reply unless told otherwise: D-Bus's usual 25 s.
    static let defaultCallTimeout: Duration = .seconds(25)

    /// What a method handler does with a call.
    enum Handling: Sendable {
        /// The call is not for this handler: sd-bus answers UnknownMethod/UnknownObject.
        case notHandled
        /// A method return with these arguments.
        case reply([DBusValue])
        /// An error reply.
        case error(DBusError)
    }

    /// A method call or signal delivered to a handler.
    struct Delivery: Sendable {
        let path: String
        let interface: String
        let member: String
        let sender: String
        let arguments: [DBusValue]
    }

    private typealias Job = @Sendable (OpaquePointer) -> Void

    private struct State: Sendable {
        var jobs: [Job] = []
        var isClosed = false
        var isRunning = true
        var replies: [ObjectIdentifier: ReplyWaiter] = [:]
        var handlers: [ObjectIdentifier: HandlerSlot] = [:]
    }

    /// The connection's unique bus name, such as `:1.42`.
    let uniqueName: String
    /// Touched only on the bus thread, and in `init` before the thread starts.
    nonisolated(unsafe) private let bus: OpaquePointer
    private let wakeReceiver: Int32
    private let wakeSender: Int32
    private let state = Mutex(State())

    /// Connects to the system bus: `DBUS_SYSTEM_BUS_ADDRESS` when set, else
    /// /run/dbus/system_bus_socket (sd_bus_open_system(3)). Throws when no bus answers.
    static func system() throws(DBusError) -> DBusConnection {
        try openLibrary("connecting to the D-Bus system bus")
        var bus: OpaquePointer?
        let opened = sd_bus_open_system(&bus)
        guard opened >= 0, let bus else { throw DBusError.library(opened, "connecting to the D-Bus system bus") }
        return try DBusConnection(bus: bus)
    }

    /// Connects to the bus at `address`, a D-Bus server address such as `unix:path=/run/x`.
    static func bus(at address: String) throws(DBusError) -> DBusConnection {
        try openLibrary("connecting to the D-Bus bus at \(address)")
        var bus: OpaquePointer?
        let created = sd_bus_new(&bus)
        guard created >= 0, let bus else { throw DBusError.library(created, "creating a D-Bus connection") }
        var result = sd_bus_set_address(bus, address)
        if result >= 0 { result = sd_bus_set_bus_client(bus, 1) }
        if result >= 0 { result = sd_bus_start(bus) }
        guard result >= 0 else {
            sd_bus_unref(bus)
            throw DBusError.library(result, "connecting to the D-Bus bus at \(address)")
        }
        return try DBusConnection(bus: bus)
    }

    /// Opens libsystemd, which the programs load only when they first talk D-Bus; `what` names
    /// the connection that needs it.
    private static func openLibrary(_ what: String) throws(DBusError) {
        if let unavailable = mdoc_sd_bus_open() {
            throw DBusError(name: DBusError.libraryErrorName, message: "\(what): \(String(cString: unavailable))")
        }
    }

    private init(bus: OpaquePointer) throws(DBusError) {
        var name: UnsafePointer<CChar>?
        // Waits for the Hello reply: a bus that is not there fails here.
        let named = sd_bus_get_unique_name(bus, &name)
        guard named >= 0, let name else {
            sd_bus_flush_close_unref(bus)
            throw DBusError.library(named, "connecting to the D-Bus system bus")
        }
        uniqueName = String(cString: name)
        var pair: [Int32] = [-1, -1]
        let type = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        guard socketpair(AF_UNIX, type, 0, &pair) == 0 else {
            sd_bus_flush_close_unref(bus)
            throw DBusError.library(-errno, "creating the wake-up channel of the D-Bus connection")
        }
        self.bus = bus
        wakeReceiver = pair[0]
        wakeSender = pair[1]
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self)
        let started = pthread_create(&thread, nil, { argument in
            guard let argument else { return nil }
            Unmanaged<DBusConnection>.fromOpaque(argument).takeRetainedValue().run()
            return nil
        }, context.toOpaque())
        guard started == 0 else {
            context.release()
            Glibc.close(pair[0])
            Glibc.close(pair[1])
            sd_bus_flush_close_unref(bus)
            throw DBusError.library(-started, "starting the D-Bus thread")
        }
        pthread_detach(thread)
    }

    // MARK: Called from any task

    /// Calls `member` of `interface` on `path` at `destination` and returns the reply's
    /// arguments; an error reply, no reply within `timeout` or a closed connection throws.
    func call(
        _ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue] = [],
        timeout: Duration = DBusConnection.defaultCallTimeout
    ) async throws(DBusError) -> [DBusValue] {
        let microseconds = UInt64(max(1, timeout.components.seconds * 1_000_000 + timeout.components.attoseconds / 1_000_000_000_000))
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<[DBusValue], DBusError>, Never>) in
            let waiter = ReplyWaiter(continuation)
            let queued = submit { [self] bus in
                self.startCall(bus, waiter, destination, path, interface, member, arguments, microseconds)
            }
            if !queued { waiter.finish(.failure(Self.closedError)) }
        }
        return try result.get()
    }

    /// Emits a signal from `path`; dropped when the connection is closed.
    func emit(_ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue]) {
        _ = submit { bus in
            var message: OpaquePointer?
            guard sd_bus_message_new_signal(bus, &message, path, interface, member) >= 0, let message else { return }
            defer { sd_bus_message_unref(message) }
            guard (try? DBusMessage(pointer: message).append(arguments)) != nil else { return }
            sd_bus_send(bus, message, nil)
        }
    }

    /// Handles method calls to `prefix` and every path below it with `handler`, on the bus
    /// thread, until the returned registration is cancelled (sd_bus_add_fallback(3)).
    func export(_ prefix: String, _ handler: @escaping @Sendable (Delivery) -> Handling) async throws(DBusError) -> Registration {
        try await register(HandlerSlot(method: handler)) { bus, slot, userdata in
            sd_bus_add_fallback(bus, &slot, prefix, { message, userdata, _ in
                guard let message, let userdata else { return 0 }
                return Unmanaged<HandlerSlot>.fromOpaque(userdata).takeUnretainedValue().handleMethod(DBusMessage(pointer: message))
            }, userdata)
        }
    }

    /// Calls `handler` for every signal matching `rule` (a D-Bus match rule such as
    /// `type='signal',sender='org.bluez',member='InterfacesAdded'`) until the returned
    /// registration is cancelled. The match is installed on the bus before this returns.
    func subscribe(_ rule: String, _ handler: @escaping @Sendable (Delivery) -> Void) async throws(DBusError) -> Registration {
        try await register(HandlerSlot(signal: handler)) { bus, slot, userdata in
            // The synchronous form: signals caused by later calls on this connection match.
            sd_bus_add_match(bus, &slot, rule, { message, userdata, _ in
                guard let message, let userdata else { return 0 }
                Unmanaged<HandlerSlot>.fromOpaque(userdata).takeUnretainedValue().handleSignal(DBusMessage(pointer: message))
                return 0
            }, userdata)
        }
    }

    /// Closes the connection: pending calls fail, handlers stop, the bus name goes away (and
    /// with it whatever bluetoothd had registered for it). Idempotent.
    func close() {
        state.withLock { state in
            guard !state.isClosed else { return }
            state.isClosed = true
            wake(state)
        }
    }

    /// Something registered on the bus: ``cancel()`` removes it. Idempotent.
    final class Registration: Sendable {
        private let connection: DBusConnection
        private let slot: HandlerSlot

        fileprivate init(connection: DBusConnection, slot: HandlerSlot) {
            self.connection = connection
            self.slot = slot
        }

        /// Removes the handler or match.
        func cancel() {
            let slot = self.slot
            // At once, not when the bus thread gets to it: a call or signal that arrives after
            // this returns finds nobody, as the caller expects.
            slot.cancel()
            _ = connection.submit { [connection] _ in
                slot.release()
                connection.state.withLock { _ = $0.handlers.removeValue(forKey: ObjectIdentifier(slot)) }
            }
        }
    }

    // MARK: Internals

    private static let closedError = DBusError(name: DBusError.noReplyName, message: "the D-Bus connection is closed")

    /// Queues `job` for the bus thread; false once the connection is closed.
    @discardableResult
    private func submit(_ job: @escaping Job) -> Bool {
        state.withLock { state -> Bool in
            guard !state.isClosed else { return false }
            state.jobs.append(job)
            wake(state)
            return true
        }
    }

    /// Wakes the thread; called with the state locked, and only while the thread still owns
    /// the descriptors.
    private func wake(_ state: borrowing State) {
        guard state.isRunning else { return }
        var one: UInt8 = 1
        _ = send(wakeSender, &one, 1, Int32(MSG_DONTWAIT))
    }

    private func register(
        _ slot: HandlerSlot, _ add: @escaping @Sendable (OpaquePointer, inout OpaquePointer?, UnsafeMutableRawPointer) -> Int32
    ) async throws(DBusError) -> Registration {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, DBusError>, Never>) in
            let queued = submit { [self] bus in
                var pointer: OpaquePointer?
                let added = add(bus, &pointer, Unmanaged.passUnretained(slot).toOpaque())
                guard added >= 0, let pointer else {
                    continuation.resume(returning: .failure(DBusError.library(added, "registering a D-Bus handler")))
                    return
                }
                slot.pointer = pointer
                state.withLock { $0.handlers[ObjectIdentifier(slot)] = slot }
                continuation.resume(returning: .success(()))
            }
            if !queued { continuation.resume(returning: .failure(Self.closedError)) }
        }
        try result.get()
        return Registration(connection: self, slot: slot)
    }

    private func startCall(
        _ bus: OpaquePointer, _ waiter: ReplyWaiter, _ destination: String, _ path: String, _ interface: String,
        _ member: String, _ arguments: [DBusValue], _ microseconds: UInt64
    ) {
        var message: OpaquePointer?
        let created = sd_bus_message_new_method_call(bus, &message, destination, path, interface, member)
        guard created >= 0, let message else {
            waiter.finish(.failure(DBusError.library(created, "calling \(interface).\(member) on \(path)")))
            return
        }
        defer { sd_bus_message_unref(message) }
        do {
            try DBusMessage(pointer: message).append(arguments)
        } catch {
            waiter.finish(.failure(error))
            return
        }
        state.withLock { $0.replies[ObjectIdentifier(waiter)] = waiter }
        waiter.connection = self
        let sent = sd_bus_call_async(bus, nil, message, { reply, userdata, _ in
            guard let userdata else { return 0 }
            let waiter = Unmanaged<ReplyWaiter>.fromOpaque(userdata).takeUnretainedValue()
            guard let reply else {
                waiter.finish(.failure(DBusConnection.closedError))
                return 0
            }
            let message = DBusMessage(pointer: reply)
            if let error = message.error {
                waiter.finish(.failure(error))
            } else {
                waiter.finish(Result(catching: { () throws(DBusError) in try message.readAll() }))
            }
            return 0
        }, Unmanaged.passUnretained(waiter).toOpaque(), microseconds)
        if sent < 0 {
            waiter.finish(.failure(DBusError.library(sent, "calling \(interface).\(member) on \(path)")))
        }
    }

    fileprivate func forget(_ waiter: ReplyWaiter) {
        state.withLock { _ = $0.replies.removeValue(forKey: ObjectIdentifier(waiter)) }
    }

    /// The bus thread: processes the bus, runs queued jobs, polls.
    private func run() {
        var failure: DBusError?
        loop: while true {
            while true {
                let processed = sd_bus_process(bus, nil)
                if processed < 0 {
                    failure = DBusError.library(processed, "processing the D-Bus connection")
                    break loop
                }
                if processed == 0 { break }
            }
            let (jobs, isClosed) = state.withLock { state -> ([Job], Bool) in
                defer { state.jobs = [] }
                return (state.jobs, state.isClosed)
            }
            if isClosed { break }
            if !jobs.isEmpty {
                for job in jobs { job(bus) }
                continue
            }
            var descriptors = [
                pollfd(fd: sd_bus_get_fd(bus), events: Int16(truncatingIfNeeded: sd_bus_get_events(bus)), revents: 0),
                pollfd(fd: wakeReceiver, events: Int16(POLLIN), revents: 0),
            ]
            var deadline: UInt64 = 0
            sd_bus_get_timeout(bus, &deadline)
            let polled = poll(&descriptors, 2, Self.pollTimeout(until: deadline))
            if polled < 0, errno != EINTR {
                failure = DBusError.library(-errno, "polling the D-Bus connection")
                break
            }
            if descriptors[1].revents & Int16(POLLIN) != 0 {
                var drained = [UInt8](repeating: 0, count: 64)
                while recv(wakeReceiver, &drained, drained.count, Int32(MSG_DONTWAIT)) > 0 {}
            }
        }
        let (replies, handlers) = state.withLock { state -> ([ReplyWaiter], [HandlerSlot]) in
            state.isClosed = true
            state.isRunning = false
            state.jobs = []
            defer {
                state.replies = [:]
                state.handlers = [:]
            }
            return (Array(state.replies.values), Array(state.handlers.values))
        }
        for handler in handlers { handler.release() }
        sd_bus_flush_close_unref(bus)
        Glibc.close(wakeReceiver)
        Glibc.close(wakeSender)
        for waiter in replies { waiter.finish(.failure(failure ?? Self.closedError)) }
    }

    /// poll(2)'s timeout in milliseconds for sd_bus_get_timeout's absolute CLOCK_MONOTONIC
    /// deadline in microseconds (UInt64.max: none).
    private static func pollTimeout(until deadline: UInt64) -> Int32 {
        guard deadline != UInt64.max else { return -1 }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let current = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
        guard deadline > current else { return 0 }
        return Int32(min((deadline - current + 999) / 1000, UInt64(Int32.max)))
    }
}

/// A method call waiting for its reply; finished once, by the reply or by the connection closing.
private final class ReplyWaiter: @unchecked Sendable {
    private let continuation: Mutex<CheckedContinuation<Result<[DBusValue], DBusError>, Never>?>
    /// Set on the bus thread before the call is sent.
    weak var connection: DBusConnection?

    init(_ continuation: CheckedContinuation<Result<[DBusValue], DBusError>, Never>) {
        self.continuation = Mutex(continuation)
    }

    func finish(_ result: Result<[DBusValue], DBusError>) {
        let taken = continuation.withLock { continuation in
            defer { continuation = nil }
            return continuation
        }
        connection?.forget(self)
        taken?.resume(returning: result)
    }
}

/// A method or signal handler and its sd-bus slot (touched on the bus thread only).
private final class HandlerSlot: @unchecked Sendable {
    private let method: (@Sendable (DBusConnection.Delivery) -> DBusConnection.Handling)?
    private let signal: (@Sendable (DBusConnection.Delivery) -> Void)?
    var pointer: OpaquePointer?
    private let isCancelled = Atomic<Bool>(false)

    init(method: @escaping @Sendable (DBusConnection.Delivery) -> DBusConnection.Handling) {
        self.method = method
        signal = nil
    }

    init(signal: @escaping @Sendable (DBusConnection.Delivery) -> Void) {
        self.signal = signal
        method = nil
    }

    func release() {
        if let pointer { sd_bus_slot_unref(pointer) }
        pointer = nil
    }

    /// From now on the handler is not called; the slot is released later, on the bus thread.
    func cancel() {
        isCancelled.store(true, ordering: .releasing)
    }

    func handleSignal(_ message: DBusMessage) {
        guard let signal, !isCancelled.load(ordering: .acquiring), let delivery = Self.delivery(of: message) else { return }
        signal(delivery)
    }

    /// Answers a method call: 1 when answered here, 0 to let sd-bus answer.
    func handleMethod(_ message: DBusMessage) -> Int32 {
        guard let method, !isCancelled.load(ordering: .acquiring) else { return 0 }
        guard let delivery = Self.delivery(of: message) else {
            return reply(to: message, .error(DBusError.malformed("arguments that cannot be read")))
        }
        return reply(to: message, method(delivery))
    }

    private func reply(to call: DBusMessage, _ handling: DBusConnection.Handling) -> Int32 {
        switch handling {
        case .notHandled:
            return 0
        case .reply(let arguments):
            var reply: OpaquePointer?
            guard sd_bus_message_new_method_return(call.pointer, &reply) >= 0, let reply else { return 1 }
            defer { sd_bus_message_unref(reply) }
            if (try? DBusMessage(pointer: reply).append(arguments)) != nil {
                sd_bus_send(nil, reply, nil)
            }
            return 1
        case .error(let error):
            error.name.withCString { name in
                error.message.withCString { text in
                    var bus = sd_bus_error(name: name, message: text, _need_free: 0)
                    _ = sd_bus_reply_method_error(call.pointer, &bus)
                }
            }
            return 1
        }
    }

    private static func delivery(of message: DBusMessage) -> DBusConnection.Delivery? {
        guard let arguments = try? message.readAll() else { return nil }
        return DBusConnection.Delivery(
            path: message.path ?? "", interface: message.interface ?? "", member: message.member ?? "",
            sender: message.sender ?? "", arguments: arguments)
    }
}
