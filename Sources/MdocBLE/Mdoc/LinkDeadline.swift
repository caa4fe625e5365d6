/// The bound of a wait for the link of a session (ISO/IEC 18013-5 8.3.3.1.1.4: advertising or
/// scanning until the peer starts the session), measured on the clock of the session, which a
/// test makes virtual.
///
/// The waits of the radio below (an advertisement's accept, a scan's connect) are bounded on the
/// real time too, by ``backstop``: what remains of the bound plus ``backstopMargin``, so that on
/// the real clock the deadline ends the wait with its own message, and a radio wait the clock
/// does not end (a virtual clock nobody moves) still ends.
package struct LinkDeadline: Sendable {
    /// How much longer than the deadline a wait of the radio below may last, 1 s.
    package static let backstopMargin: Duration = .seconds(1)

    /// The bound.
    package let timeout: Duration
    private let clock: any Clock<Duration>
    private let stopwatch: @Sendable () -> Duration

    /// The bound `timeout` from now on `clock`.
    package init(timeout: Duration, clock: any Clock<Duration>) {
        self.timeout = timeout
        self.clock = clock
        stopwatch = Self.stopwatch(clock)
    }

    /// The time since the bound started, on its clock.
    package var elapsed: Duration { stopwatch() }

    /// The time left until the deadline, zero once it passed.
    package var remaining: Duration { max(timeout - elapsed, .zero) }

    /// Whether the deadline has passed.
    package var hasPassed: Bool { elapsed >= timeout }

    /// The bound of a wait of the radio below, in real time.
    package var backstop: Duration { remaining + Self.backstopMargin }

    /// Waits until the deadline: true when it passed, false when the waiting task was cancelled
    /// first.
    package func passage() async -> Bool {
        do {
            try await clock.sleep(for: remaining)
            return true
        } catch {
            return false
        }
    }

    /// Runs `wait` until it makes a link, ending it with `expiry()` when the deadline passes
    /// first; a link made as the time ran out is closed.
    package func bound(
        expiry: @escaping @Sendable () -> BLEError, _ wait: @escaping @Sendable () async throws(BLEError) -> any MdocTransport
    ) async throws(BLEError) -> any MdocTransport {
        let outcome = await withTaskGroup(of: Result<any MdocTransport, BLEError>?.self) { group in
            group.addTask {
                do throws(BLEError) {
                    return .success(try await wait())
                } catch {
                    return .failure(error)
                }
            }
            group.addTask { await passage() ? .failure(expiry()) : nil }
            let first = await group.next() ?? nil
            group.cancelAll()
            for await late in group {
                if case .success(let transport)? = late { transport.close() }
            }
            return first ?? .failure(BLEError(.peerNotFound, "the wait for a link was cancelled"))
        }
        return try outcome.get()
    }

    /// Reads `clock` now and gives the time since then, whatever the clock's instants are.
    private static func stopwatch<C: Clock<Duration>>(_ clock: C) -> @Sendable () -> Duration {
        let start = clock.now
        return { start.duration(to: clock.now) }
    }
}
