import Glibc
import MdocBLE
import MdocPosix
import NIOCore
import NIOPosix

/// Opens the socket of a D-Bus server address and authenticates on it: what a
/// ``DBusConnection`` runs on.
package enum DBusConnector {
    /// How long connecting and authenticating may take.
    package static let connectTimeout: Duration = .seconds(25)
    /// The most messages held before the connection takes them.
    package static let receiveQueueLimit = 64

    /// A channel to the bus at `address` that has authenticated (Specification:
    /// "Authentication Protocol") and delivers the bus's messages to an
    /// `InboundDeliveryHandler`, which holds them until the connection attaches.
    package static func authenticatedChannel(to address: DBusAddress) async throws(DBusError) -> any Channel {
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let authenticated = loop.makePromise(of: Void.self)
        authenticated.fail(after: connectTimeout) {
            BLEError(.timeout, "the bus did not complete the authentication within \(connectTimeout)")
        }
        let bootstrap = ClientBootstrap(group: loop)
            .connectTimeout(TimeAmount(connectTimeout))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers([
                        DBusAuthenticationHandler(authenticated: authenticated),
                        ByteToMessageHandler(DBusMessageDecoder()),
                        InboundDeliveryHandler<DBusMessage>(limit: receiveQueueLimit, linkName: "the D-Bus connection"),
                    ])
                }
            }
        let channel: any Channel
        do {
            switch address {
            case .path(let path):
                channel = try await bootstrap.connect(unixDomainSocketPath: path).get()
            case .abstract(let name):
                channel = try await bootstrap.withConnectedSocket(try abstractSocket(name)).get()
            }
        } catch let error as DBusError {
            authenticated.fail(error)
            throw error
        } catch {
            authenticated.fail(error)
            throw DBusError.connection("\(address): \(error)")
        }
        do {
            try await authenticated.futureResult.get()
        } catch {
            channel.close(promise: nil)
            throw error as? DBusError ?? DBusError.connection("\(error)")
        }
        return channel
    }

    /// A stream socket connected to the abstract name `name`.
    private static func abstractSocket(_ name: String) throws(DBusError) -> Int32 {
        let fail = { (call: String, error: SystemCall.Errno) in
            DBusError.connection("\(call) of unix:abstract=\(name) failed: \(String(cString: strerror(error.code)))")
        }
        let tooLong = { (octets: Int) in
            DBusError.connection("the abstract name \(name) is \(octets) octets, above the \(AbstractSocketAddress.maximumNameLength) it can hold")
        }
        return try AbstractSocketAddress.withAddress(name, tooLong: tooLong) { (address, length) throws(DBusError) -> Int32 in
            let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
            let fd: Int32
            switch SystemCall.make({ socket(AF_UNIX, type, 0) }) {
            case .success(let socket): fd = socket
            case .failure(let error): throw fail("socket", error)
            }
            if case .failure(let error) = SystemCall.make({ Glibc.connect(fd, address, length) }) {
                Glibc.close(fd)
                throw fail("connect", error)
            }
            return fd
        }
    }
}
