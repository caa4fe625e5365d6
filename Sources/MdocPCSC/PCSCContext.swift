import CPCSC
import Dispatch
import NIOConcurrencyHelpers

/// A connection to the PC/SC resource manager, pcscd (PC/SC part 5, `SCardEstablishContext`):
/// the readers it has, waits for a reader and for a card, and connections to cards.
///
/// The context is released when the last reference to it (and to every ``PCSCCard`` made with it)
/// goes, or by ``release()``. Its calls, and those of its cards, run one at a time on a thread of
/// its own, never on Swift concurrency's threads: a call made during a wait runs after the wait
/// (a second context waits while the first one transmits). A wait ends early when its task is
/// cancelled (`SCardCancel`).
///
/// pcsc-lite's client library finds pcscd at `/run/pcscd/pcscd.comm`, or at the path in the
/// environment variable `PCSCLITE_CSOCK_NAME`, read once, at the first context a process makes.
public final class PCSCContext: Sendable {
    /// A card in a reader, as a wait found it.
    public struct CardPresence: Sendable, Hashable {
        /// The reader's name.
        public let reader: String
        /// The card's answer to reset (ISO/IEC 7816-3 8.2), up to ``PCSCCard/maximumATRLength``
        /// octets.
        public let atr: [UInt8]
    }

    /// How long at most a wait stays in pcscd before it looks again at its task's
    /// cancellation: `SCardCancel` ends a wait at once, this bounds the wait only when a
    /// cancellation comes just before the wait reaches pcscd, too early for `SCardCancel`.
    static let waitSlice: Duration = .milliseconds(500)

    /// The `SCARDCONTEXT`.
    let handle: SCARDCONTEXT
    let worker: PCSCWorker
    private let state: NIOLockedValueBox<State>

    private struct State {
        var isReleased = false
    }

    /// Where a wait and its task's cancellation meet.
    private struct WaitState {
        /// The wait is in pcscd: `SCardCancel` ends it.
        var isWaiting = false
        /// The task was cancelled.
        var isCancelled = false
    }

    private init(handle: SCARDCONTEXT, worker: PCSCWorker) {
        self.handle = handle
        self.worker = worker
        self.state = NIOLockedValueBox(State())
    }

    /// Connects to pcscd: `noService` when it does not run (`SCARD_E_NO_SERVICE`).
    public static func establish() async throws(PCSCError) -> PCSCContext {
        let worker = PCSCWorker()
        let result: LONG
        let handle: SCARDCONTEXT
        do {
            (result, handle) = try await worker.run { () -> (LONG, SCARDCONTEXT) in
                var handle = SCARDCONTEXT()
                let result = SCardEstablishContext(PCSCLibrary.systemScope, nil, nil, &handle)
                return (result, handle)
            }
        } catch {
            worker.finish {}
            throw error
        }
        let code = PCSCLibrary.responseCode(result)
        guard code == .success else {
            worker.finish {}
            throw PCSCError("SCardEstablishContext", code)
        }
        return PCSCContext(handle: handle, worker: worker)
    }

    deinit {
        let handle = self.handle
        let isReleased = state.withLockedValue { $0.isReleased }
        worker.finish {
            if !isReleased { _ = SCardReleaseContext(handle) }
        }
    }

    /// Releases the context (`SCardReleaseContext`): its connections to cards end, and later calls
    /// fail. Idempotent.
    public func release() async {
        let handle = self.handle
        let first = state.withLockedValue { state in
            defer { state.isReleased = true }
            return !state.isReleased
        }
        guard first else { return }
        do {
            try await worker.run { _ = SCardReleaseContext(handle) }
        } catch {
            // Cancelled before the call: it still happens, unawaited.
            worker.runWithoutWaiting { _ = SCardReleaseContext(handle) }
        }
    }

    /// The names of the readers pcscd has now; empty when it has none.
    public func readers() async throws(PCSCError) -> [String] {
        let readers = try await worker.run { [self] () -> Result<[String], PCSCError> in listReaders() }
        switch readers {
        case .success(let names): return names
        case .failure(let error) where error.code == .noReader: return []
        case .failure(let error): throw error
        }
    }

    /// Waits up to `bound` for a reader: the first reader's name, or the one called `name` when
    /// given. `noReader` when none comes in time, `cancelled` when the
    /// task is cancelled.
    public func waitForReader(named name: String? = nil, within bound: Duration) async throws(PCSCError) -> String {
        try await waiting(within: bound) { [self] deadline, cancellation in
            var plugAndPlay = DWORD(SCARD_STATE_UNAWARE)
            while true {
                switch listReaders() {
                case .success(let readers):
                    if let found = name.map({ readers.contains($0) ? $0 : nil }) ?? readers.first { return .success(found) }
                case .failure(let error) where error.code == .noReader: break
                case .failure(let error): return .failure(error)
                }
                var states = [ReaderState(name: PCSCLibrary.plugAndPlayReader, currentState: plugAndPlay)]
                switch statusChange(&states, until: deadline, cancellation) {
                case .success: plugAndPlay = states[0].eventState & ~DWORD(SCARD_STATE_CHANGED)
                case .failure(let error) where error.code == .timeout:
                    return .failure(PCSCError(.noReader, "no reader\(name.map { " called \"\($0)\"" } ?? "") came within \(bound)", context: error.responseCode))
                case .failure(let error): return .failure(error)
                }
            }
        }
    }

    /// Waits up to `bound` for a card in the reader called `reader`, or in any reader when nil
    /// (readers that come during the wait included): the first card found.
    /// `noCard` when none comes in time, `unknownReader` when `reader`
    /// is not a reader pcscd has, `cancelled` when the task is cancelled.
    public func waitForCard(in reader: String? = nil, within bound: Duration) async throws(PCSCError) -> CardPresence {
        try await waiting(within: bound) { [self] deadline, cancellation in
            var known: [String: DWORD] = [:]
            var plugAndPlay = DWORD(SCARD_STATE_UNAWARE)
            while true {
                let names: [String]
                if let reader {
                    names = [reader]
                } else {
                    switch listReaders() {
                    case .success(let readers): names = readers
                    case .failure(let error) where error.code == .noReader: names = []
                    case .failure(let error): return .failure(error)
                    }
                }
                var states = names.map { ReaderState(name: $0, currentState: known[$0] ?? DWORD(SCARD_STATE_UNAWARE)) }
                if reader == nil { states.append(ReaderState(name: PCSCLibrary.plugAndPlayReader, currentState: plugAndPlay)) }
                switch statusChange(&states, until: deadline, cancellation) {
                case .success: break
                case .failure(let error) where error.code == .timeout:
                    let place = reader.map { "the reader \"\($0)\"" } ?? (names.isEmpty ? "any reader (there is none)" : "any reader")
                    return .failure(PCSCError(.noCard, "no card came in \(place) within \(bound)", context: error.responseCode))
                case .failure(let error): return .failure(error)
                }
                for state in states where state.name != PCSCLibrary.plugAndPlayReader {
                    if state.eventState & DWORD(SCARD_STATE_UNKNOWN) != 0 {
                        return .failure(PCSCError(.unknownReader, "pcscd has no reader called \"\(state.name)\"", context: nil))
                    }
                    if state.eventState & DWORD(SCARD_STATE_PRESENT) != 0, state.eventState & DWORD(SCARD_STATE_MUTE) == 0 {
                        return .success(CardPresence(reader: state.name, atr: state.atr))
                    }
                    known[state.name] = state.eventState & ~DWORD(SCARD_STATE_CHANGED)
                }
                if let last = states.last, last.name == PCSCLibrary.plugAndPlayReader {
                    plugAndPlay = last.eventState & ~DWORD(SCARD_STATE_CHANGED)
                }
            }
        }
    }

    /// Waits up to `bound` until the reader called `reader` has no card (the holder took the
    /// device away): `timeout` when the card stays, `unknownReader`
    /// when there is no such reader, `cancelled` when the task is cancelled.
    public func waitForCardRemoval(in reader: String, within bound: Duration) async throws(PCSCError) {
        try await waiting(within: bound) { [self] deadline, cancellation -> Result<Void, PCSCError> in
            var known = DWORD(SCARD_STATE_UNAWARE)
            while true {
                var states = [ReaderState(name: reader, currentState: known)]
                switch statusChange(&states, until: deadline, cancellation) {
                case .success: break
                case .failure(let error) where error.code == .timeout:
                    return .failure(PCSCError(.timeout, "the card stayed in the reader \"\(reader)\" for \(bound)", context: error.responseCode))
                case .failure(let error): return .failure(error)
                }
                let state = states[0].eventState
                if state & DWORD(SCARD_STATE_UNKNOWN) != 0 {
                    return .failure(PCSCError(.unknownReader, "pcscd has no reader called \"\(reader)\"", context: nil))
                }
                if state & DWORD(SCARD_STATE_EMPTY) != 0 { return .success(()) }
                known = state & ~DWORD(SCARD_STATE_CHANGED)
            }
        }
    }

    /// Connects to the card in `reader` (`SCardConnect`), shared with other applications unless
    /// `share` says otherwise, in T=1 when the card offers it and else in T=0 (pcsc-lite tries
    /// T=1 first when both are asked for).
    public func connect(to reader: String, share: PCSCCard.ShareMode = .shared) async throws(PCSCError) -> PCSCCard {
        let handle = self.handle
        let (result, card, active) = try await worker.run { () -> (LONG, SCARDHANDLE, DWORD) in
            var card = SCARDHANDLE()
            var active = DWORD()
            let result = SCardConnect(handle, reader, share.rawValue, DWORD(SCARD_PROTOCOL_T0 | SCARD_PROTOCOL_T1), &card, &active)
            return (result, card, active)
        }
        let code = PCSCLibrary.responseCode(result)
        guard code == .success else { throw PCSCError("SCardConnect to \"\(reader)\"", code, removal: .noCard) }
        return PCSCCard(context: self, handle: card, reader: reader, protocol: PCSCCard.TransmissionProtocol(rawValue: active))
    }

    // MARK: - Calls on the worker's thread

    /// SCardListReaders; `noReader` when pcscd has none.
    private func listReaders() -> Result<[String], PCSCError> {
        var length = DWORD()
        var result = SCardListReaders(handle, nil, nil, &length)
        var code = PCSCLibrary.responseCode(result)
        guard code == .success else { return .failure(PCSCError("SCardListReaders", code)) }
        var buffer = [CChar](repeating: 0, count: Int(length))
        result = SCardListReaders(handle, nil, &buffer, &length)
        code = PCSCLibrary.responseCode(result)
        guard code == .success else { return .failure(PCSCError("SCardListReaders", code)) }
        return .success(PCSCLibrary.names(inMultiString: Array(buffer.prefix(Int(length)))))
    }

    /// SCardGetStatusChange on `states` until one changes or `deadline` passes, in slices of
    /// ``waitSlice`` between which the task's cancellation is looked at.
    private func statusChange(
        _ states: inout [ReaderState], until deadline: ContinuousClock.Instant, _ cancellation: NIOLockedValueBox<WaitState>
    ) -> Result<Void, PCSCError> {
        while true {
            let admitted = cancellation.withLockedValue { state in
                state.isWaiting = !state.isCancelled
                return state.isWaiting
            }
            guard admitted else { return .failure(PCSCError(.cancelled, "the wait was cancelled", context: nil)) }
            let remaining = max(.zero, deadline - .now)
            let slice = min(remaining, Self.waitSlice)
            let milliseconds = DWORD(slice / .milliseconds(1))
            let result = ReaderState.withCStates(&states) { pointer, count in
                SCardGetStatusChange(handle, milliseconds, pointer, DWORD(count))
            }
            cancellation.withLockedValue { $0.isWaiting = false }
            let code = PCSCLibrary.responseCode(result)
            switch code {
            case .success: return .success(())
            case .timeout where slice < remaining: continue
            case .cancelled: return .failure(PCSCError(.cancelled, "the wait was cancelled", context: code))
            default: return .failure(PCSCError("SCardGetStatusChange", code))
            }
        }
    }

    /// Runs `wait` on the worker's thread with its deadline `bound` from its start; the task's
    /// cancellation ends it (SCardCancel, called away from the task's thread).
    private func waiting<Value: Sendable>(
        within bound: Duration,
        _ wait: @escaping @Sendable (ContinuousClock.Instant, NIOLockedValueBox<WaitState>) -> Result<Value, PCSCError>
    ) async throws(PCSCError) -> Value {
        let cancellation = NIOLockedValueBox(WaitState())
        let result = await withTaskCancellationHandler { () async -> Result<Value, PCSCError> in
            do throws(PCSCError) {
                return try await worker.run { wait(.now + bound, cancellation) }
            } catch {
                return .failure(error)
            }
        } onCancel: { [self] in
            let isWaiting = cancellation.withLockedValue { state in
                state.isCancelled = true
                return state.isWaiting
            }
            if isWaiting { DispatchQueue.global().async { _ = SCardCancel(self.handle) } }
        }
        return try result.get()
    }
}
