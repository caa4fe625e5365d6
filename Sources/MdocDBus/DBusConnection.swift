import MdocBLE
import MdocPosix
import NIOCore
import Synchronization

/// A connection to a D-Bus message bus (D-Bus Specification), on a SwiftNIO channel: the event
/// loop reads and writes the socket, cuts the stream into messages (``DBusMessageDecoder``) and
/// runs the connection, whose calls, replies, exported objects and signal subscriptions all live
/// on that loop. Method and signal handlers are called there, in the order the messages arrived,
/// and must not block; an actor on the same loop can take what they hand over at once.
package actor DBusConnection {
    /// How long a method call waits for its reply unless told otherwise: D-Bus's usual 25 s.
    package static let defaultCallTimeout: Duration = .seconds(25)

    /// What a method handler does with a call.
    package enum Handling: Sendable {
        /// The call is not for this handler: the caller gets UnknownMethod.
        case notHandled
        /// A method return with these arguments.
        case reply([DBusValue])
        /// An error reply.
        case error(DBusError)
    }

    /// A method call or signal delivered to a handler.
    package struct Delivery: Sendable {
        package let path: String
        package let interface: String
        package let member: String
        package let sender: String
        package let arguments: [DBusValue]
    }

    /// Something registered on the connection: ``cancel()`` removes it.
    package final class Registration: Sendable {
        private let connection: DBusConnection
        fileprivate let identifier: Int
        private let cancelled = Atomic<Bool>(false)

        fileprivate init(connection: DBusConnection, identifier: Int) {
            self.connection = connection
            self.identifier = identifier
        }

        /// Whether ``cancel()`` was called.
        fileprivate var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

        /// Removes the handler or subscription. At once: a call or signal that arrives after this
        /// returns finds nobody. Idempotent.
        package func cancel() {
            guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
            let (connection, identifier) = (connection, identifier)
            connection.eventLoop.execute {
                connection.assumeIsolated { $0.remove(identifier) }
            }
        }
    }

    /// An object tree served by a handler.
    private struct Export {
        package let prefix: String
        package let handler: @Sendable (Delivery) -> Handling
        package let registration: Registration
    }

    /// A signal subscription.
    private struct Subscription {
        package let rule: DBusMatchRule
        /// The unique name owning the rule's well-known sender name.
        package let owner: String?
        package let handler: @Sendable (Delivery) -> Void
        package let registration: Registration
    }

    /// The socket's channel.
    package nonisolated let channel: any Channel
    /// The channel's event loop, which runs the connection.
    package nonisolated var eventLoop: any EventLoop { channel.eventLoop }
    /// The connection's unique bus name, such as `:1.42`, once the bus said it.
    package private(set) var uniqueName = ""
    private var lastSerial: UInt32 = 0
    private var replies: [UInt32: (promise: EventLoopPromise<DBusMessage>, timer: Scheduled<Void>)] = [:]
    private var exports: [Int: Export] = [:]
    private var subscriptions: [Int: Subscription] = [:]
    private var lastRegistration = 0
    /// Why the connection ended, once it did.
    package private(set) var end: DBusError?

    /// The channel's event loop runs the connection.
    package nonisolated var unownedExecutor: UnownedSerialExecutor {
        eventLoop.executor.asUnownedSerialExecutor()
    }

    private init(channel: any Channel) {
        self.channel = channel
    }

    deinit {
        channel.close(promise: nil)
    }

    // MARK: Connecting

    /// Connects to the system bus: `DBUS_SYSTEM_BUS_ADDRESS` when set, else
    /// /run/dbus/system_bus_socket. Throws when no bus answers.
    package static func system() async throws(DBusError) -> DBusConnection {
        try await connect(to: try DBusAddress.systemBus(), named: "the D-Bus system bus")
    }

    /// Connects to the bus at `address`, a D-Bus server address such as `unix:path=/run/x`.
    package static func bus(at address: String) async throws(DBusError) -> DBusConnection {
        try await connect(to: try DBusAddress.parse(address), named: "the D-Bus bus at \(address)")
    }

    /// Connects to the first of `addresses` that answers, authenticates and says Hello.
    private static func connect(to addresses: [DBusAddress], named name: String) async throws(DBusError) -> DBusConnection {
        var failure = DBusError.connection("connecting to \(name): no address")
        for address in addresses {
            do {
                let connection = DBusConnection(channel: try await DBusConnector.authenticatedChannel(to: address))
                try await connection.start()
                return connection
            } catch {
                failure = DBusError.connection("connecting to \(name): \(error.message)")
            }
        }
        throw failure
    }

    /// Takes the messages from now on and says Hello (Specification: "Message Bus Messages"),
    /// which gives the connection its unique name.
    private func start() async throws(DBusError) {
        do {
            try channel.pipeline.syncOperations.handler(type: InboundDeliveryHandler<DBusMessage>.self).attach(
                received: { [weak self] message in self?.assumeIsolated { $0.dispatch(message) } },
                ended: { [weak self] end in self?.assumeIsolated { $0.ended(end) } })
        } catch {
            throw DBusError.connection("the connection closed while it was set up")
        }
        let reply = try await call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "Hello")
        guard let name = reply.first?.stringValue else { throw DBusError.connection("the bus answered Hello without a name") }
        uniqueName = name
    }

    // MARK: Calls and signals

    /// Calls `member` of `interface` on `path` at `destination` and returns the reply's
    /// arguments; an error reply, no reply within `timeout` or a closed connection throws.
    package func call(
        _ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue] = [],
        timeout: Duration = DBusConnection.defaultCallTimeout
    ) async throws(DBusError) -> [DBusValue] {
        let reply = startCall(.methodCall(destination, path, interface, member, arguments), timeout: timeout)
        do {
            return try await reply.get().body
        } catch {
            throw error as? DBusError ?? DBusError.connection("\(error)")
        }
    }

    /// ``call(_:_:_:_:_:timeout:)`` from anywhere, without waiting: the future of the reply's
    /// arguments. For clean-up that must not hold up its caller.
    package nonisolated func send(
        _ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue] = [],
        timeout: Duration = DBusConnection.defaultCallTimeout
    ) -> EventLoopFuture<[DBusValue]> {
        let message = DBusMessage.methodCall(destination, path, interface, member, arguments)
        return eventLoop.flatSubmit { [self] in
            assumeIsolated { $0.startCall(message, timeout: timeout) }.map(\.body)
        }
    }

    /// Sends the method call `message` and completes with its reply: the method return, or the
    /// error the error reply carries, `NoReply` after `timeout` or once the connection closed.
    private func startCall(_ call: DBusMessage, timeout: Duration) -> EventLoopFuture<DBusMessage> {
        var message = call
        let serial = nextSerial()
        message.serial = serial
        let name = "\(call.interface ?? "").\(call.member ?? "")"
        let promise = eventLoop.makePromise(of: DBusMessage.self)
        if let end {
            promise.fail(DBusError(name: DBusError.noReplyName, message: "the D-Bus connection is closed: \(end.message)"))
            return promise.futureResult
        }
        let timer = eventLoop.scheduleTask(in: TimeAmount(timeout)) { [weak self] () -> Void in
            self?.assumeIsolated { connection in
                connection.replies.removeValue(forKey: serial)?.promise.fail(DBusError(
                    name: DBusError.noReplyName, message: "no reply to \(name) within \(timeout)"))
            }
        }
        replies[serial] = (promise, timer)
        write(message) { [weak self] error in
            self?.assumeIsolated { connection in
                guard let pending = connection.replies.removeValue(forKey: serial) else { return }
                pending.timer.cancel()
                pending.promise.fail(error)
            }
        }
        return promise.futureResult.flatMapThrowing { reply in
            guard reply.kind == .methodReturn else { throw reply.carriedError }
            return reply
        }
    }

    /// Emits a signal from `path`; dropped when the connection is closed.
    package nonisolated func emit(_ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue]) {
        let message = DBusMessage.signal(path, interface, member, arguments)
        eventLoop.execute { [self] in
            assumeIsolated { connection in
                var message = message
                message.serial = connection.nextSerial()
                connection.write(message) { _ in }
            }
        }
    }

    /// Handles method calls to `prefix` and every path below it with `handler`, on the event
    /// loop, until the returned registration is cancelled.
    package func export(_ prefix: String, _ handler: @escaping @Sendable (Delivery) -> Handling) async throws(DBusError) -> Registration {
        if let end { throw end }
        let registration = makeRegistration()
        exports[registration.identifier] = Export(prefix: prefix, handler: handler, registration: registration)
        return registration
    }

    /// Calls `handler` for every signal matching `rule` until the returned registration is
    /// cancelled. The bus has the match before this returns, so signals caused by later calls
    /// on this connection match (AddMatch, Specification: "Message Bus Messages").
    ///
    /// A rule's well-known sender is matched by the unique name that owns it now (signals carry
    /// the unique name): when nobody owns it, this throws `ServiceUnknown`, since no signal of
    /// it could be told from another's.
    package func subscribe(_ rule: DBusMatchRule, _ handler: @escaping @Sendable (Delivery) -> Void) async throws(DBusError) -> Registration {
        var owner: String?
        if let sender = rule.sender, !sender.hasPrefix(":") {
            do {
                owner = try await call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner",
                                       [.string(sender)]).first?.stringValue
            } catch {
                throw DBusError(name: DBusError.serviceUnknownName, message: "nobody owns \(sender) on the bus: \(error.message)")
            }
        }
        _ = try await call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "AddMatch",
                           [.string(rule.description)])
        let registration = makeRegistration()
        subscriptions[registration.identifier] = Subscription(rule: rule, owner: owner, handler: handler, registration: registration)
        return registration
    }

    /// Closes the connection: pending calls fail, handlers stop, the bus name goes away (and
    /// with it whatever bluetoothd had registered for it). Idempotent.
    package nonisolated func close() {
        channel.close(promise: nil)
    }

    // MARK: Internals

    private func nextSerial() -> UInt32 {
        lastSerial = lastSerial == UInt32.max ? 1 : lastSerial + 1
        return lastSerial
    }

    private func makeRegistration() -> Registration {
        lastRegistration += 1
        return Registration(connection: self, identifier: lastRegistration)
    }

    /// Forgets registration `identifier`; a subscription's match is removed from the bus.
    private func remove(_ identifier: Int) {
        exports[identifier] = nil
        if let subscription = subscriptions.removeValue(forKey: identifier), end == nil {
            _ = startCall(.methodCall("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "RemoveMatch",
                                      [.string(subscription.rule.description)]), timeout: Self.defaultCallTimeout)
        }
    }

    /// Writes `message`; `failed` gets the error when it cannot be encoded or written.
    private func write(_ message: DBusMessage, failed: @escaping @Sendable (DBusError) -> Void) {
        let bytes: ByteBuffer
        do {
            bytes = try message.encoded(allocator: channel.allocator)
        } catch {
            failed(error)
            return
        }
        channel.writeAndFlush(bytes).whenFailure { error in
            failed(DBusError(name: DBusError.noReplyName, message: "the D-Bus connection is closed (\(error))"))
        }
    }

    /// Handles one message from the bus.
    private func dispatch(_ message: DBusMessage) {
        switch message.kind {
        case .methodReturn, .error:
            guard let serial = message.replySerial, let pending = replies.removeValue(forKey: serial) else { return }
            pending.timer.cancel()
            pending.promise.succeed(message)
        case .signal:
            let delivery = Self.delivery(of: message)
            for identifier in subscriptions.keys.sorted() {
                guard let subscription = subscriptions[identifier], !subscription.registration.isCancelled,
                      subscription.rule.matches(message, owner: subscription.owner) else { continue }
                subscription.handler(delivery)
            }
        case .methodCall:
            answer(message)
        }
    }

    /// Answers the method call `call` with the first exported handler that takes it;
    /// UnknownObject or UnknownMethod when none does.
    private func answer(_ call: DBusMessage) {
        let delivery = Self.delivery(of: call)
        var handling = Handling.notHandled
        var hasObject = false
        for identifier in exports.keys.sorted() {
            guard let export = exports[identifier], !export.registration.isCancelled,
                  delivery.path == export.prefix || delivery.path.hasPrefix(export.prefix + "/") else { continue }
            hasObject = true
            handling = export.handler(delivery)
            if case .notHandled = handling { continue }
            break
        }
        guard !call.flags.contains(.noReplyExpected) else { return }
        var reply: DBusMessage
        switch handling {
        case .reply(let arguments):
            reply = .methodReturn(to: call, arguments)
        case .error(let error):
            reply = .error(to: call, error)
        case .notHandled:
            reply = .error(to: call, hasObject
                ? DBusError(name: DBusError.unknownMethodName, message: "no method \(delivery.interface).\(delivery.member) on \(delivery.path)")
                : DBusError(name: DBusError.unknownObjectName, message: "no object \(delivery.path)"))
        }
        reply.serial = nextSerial()
        write(reply) { _ in }
    }

    /// The connection ended: pending calls fail, registrations are forgotten.
    private func ended(_ result: Result<Void, BLEError>) {
        let error: DBusError
        switch result {
        case .success: error = DBusError(name: DBusError.noReplyName, message: "the D-Bus connection is closed")
        case .failure(let failure): error = DBusError(name: DBusError.noReplyName, message: "the D-Bus connection failed: \(failure.reason)")
        }
        end = error
        let pending = replies
        replies = [:]
        for (_, call) in pending {
            call.timer.cancel()
            call.promise.fail(error)
        }
        exports = [:]
        subscriptions = [:]
        channel.close(promise: nil)
    }

    private static func delivery(of message: DBusMessage) -> Delivery {
        Delivery(path: message.path ?? "", interface: message.interface ?? "", member: message.member ?? "",
                 sender: message.sender ?? "", arguments: message.body)
    }
}
