import Glibc
import Synchronization

/// A listening sim socket named after a service UUID: the `sim` transport's counterpart of LE
/// advertising with the service UUID in the advertising data (ISO/IEC 18013-5 Table A.1).
///
/// It advertises until ``stop()``: an 18013-5 GATT server takes centrals until one of them
/// starts the session (8.3.3.1.1.4), so each ``accept(timeout:)`` takes the next client. Get one
/// from ``SimLink/advertise(serviceUUID:)``.
public final class SimAdvertiser: Sendable {
    /// How often ``accept(timeout:)`` looks for a connection: the listening socket is
    /// non-blocking and polled between sleeps, so no thread blocks.
    public static let acceptPollInterval: Duration = .milliseconds(10)

    /// The abstract socket name advertised.
    public let address: String
    /// The listening socket; nil once advertising stopped.
    private let listener: Mutex<Int32?>

    init(address: String, listener: Int32) {
        self.address = address
        self.listener = Mutex(listener)
    }

    deinit {
        stop()
    }

    /// Waits up to `timeout` for the next client and returns the link; advertising goes on.
    /// Throws `timeout` when nobody connected in time, `linkClosed` after advertising stopped.
    public func accept(timeout: Duration) async throws(BLEError) -> SimBearer {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let socket = try acceptPending() {
                return try SimBearer(socket: socket)
            }
            guard ContinuousClock.now < deadline else {
                throw BLEError(.timeout, "no sim client connected to \"\(address)\" within \(timeout)")
            }
            do {
                try await Task.sleep(for: Self.acceptPollInterval)
            } catch {
                throw BLEError(.timeout, "waiting for a sim client on \"\(address)\" was cancelled")
            }
        }
    }

    /// Stops advertising: the name is released and later connects fail. Idempotent.
    public func stop() {
        listener.withLock { listener in
            if let socket = listener { close(socket) }
            listener = nil
        }
    }

    /// A connected socket when a client is waiting, else nil.
    private func acceptPending() throws(BLEError) -> Int32? {
        let result = listener.withLock { listener -> Result<Int32?, BLEError> in
            guard let socket = listener else {
                return .failure(BLEError(.linkClosed, "advertising \"\(address)\" has stopped"))
            }
            let connected = Glibc.accept(socket, nil, nil)
            if connected >= 0 {
                SystemCall.setCloseOnExec(connected)
                return .success(connected)
            }
            let code = errno
            switch code {
            case EAGAIN, EWOULDBLOCK, EINTR, ECONNABORTED: return .success(nil)
            default: return .failure(SystemCall.failure("accept", code, "accepting a sim client on \"\(address)\""))
            }
        }
        return try result.get()
    }
}
