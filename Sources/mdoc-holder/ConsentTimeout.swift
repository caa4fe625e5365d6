import MdocPresentation
import MdocSession
import MdocTerminal
import MdocText
import Synchronization

/// `mdoc-holder present --consent-timeout`: how long the consent prompt waits for the person at
/// the terminal. Past it the holder ends the session as a cancelled one, with SessionData status
/// 20 and then, over BLE, State 0x02 (ISO/IEC 18013-5 9.1.1.4, 8.3.3.1.1.5), and sends nothing
/// of the request, so that a prompt nobody answers does not hold the reader, or the link, until
/// the reader gives up. One per session; `--yes` and `--policy` answer at once and are not bounded.
final class ConsentTimeout: Sendable {
    /// The default limit, 90 s: time for a person to read a request and decide, and shorter
    /// than a reader's default wait for the response (`SessionTimeouts.standardConsentTime`, 120
    /// s from its request), so that such a reader hears the session end rather than timing out.
    static let defaultSeconds: Double = 90

    /// How long the prompt waits, in seconds.
    let seconds: Double
    private let expiry: AsyncStream<Void>
    private let expire: AsyncStream<Void>.Continuation
    private let expiredFlag = Atomic<Bool>(false)

    /// A bound of `seconds` on each consent prompt of one session.
    init(seconds: Double) {
        self.seconds = seconds
        (expiry, expire) = AsyncStream.makeStream(of: Void.self)
    }

    /// How long the prompt waits.
    var limit: Duration { .milliseconds(Int64(seconds * 1000)) }

    /// Whether a prompt ran out of time, which ended the session.
    var expired: Bool { expiredFlag.load(ordering: .acquiring) }

    /// Why the session ended, once ``expired``.
    var explanation: String {
        let limit = seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
        return "nobody answered the consent prompt within \(limit) (--consent-timeout): the session was ended (status 20) and nothing was sent"
    }

    /// The answer `ask` gives within ``limit``. Past it the session ends (``run(_:)``), a line
    /// feed ends the unanswered question's line on `output`, and this returns only when the
    /// session's task is cancelled, so that no answer of it is sent.
    func bound(_ ask: @escaping @Sendable () async -> ElementSelection, output: ProgramOutput) async -> ElementSelection {
        let limit = self.limit
        let answer = await withTaskGroup(of: ElementSelection?.self) { group in
            group.addTask { await ask() }
            group.addTask {
                try? await Task.sleep(for: limit)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        if let answer { return answer }
        // The wait ended first: the limit passed, or the session's task was cancelled (the
        // reader left), when nothing returned is sent.
        guard !Task.isCancelled else { return .none }
        expiredFlag.store(true, ordering: .releasing)
        output.write("\n")
        expire.yield()
        // Waits for the session's task to be cancelled, which ``run(_:)`` does now.
        let (cancelled, cancel) = AsyncStream.makeStream(of: Void.self)
        await withTaskCancellationHandler {
            for await _ in cancelled {}
        } onCancel: {
            cancel.finish()
        }
        return .none
    }

    /// Runs `session`, cancelled (status 20, State 0x02) when a prompt runs out of time.
    func run(_ session: @escaping @Sendable () async -> HolderSessionResult) async -> HolderSessionResult {
        let task = Task { await session() }
        let expiry = self.expiry
        let watch = Task {
            for await _ in expiry {
                task.cancel()
                return
            }
        }
        let result = await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }
        watch.cancel()
        return result
    }
}
