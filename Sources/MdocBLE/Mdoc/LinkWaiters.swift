/// The tasks of a transport waiting for a moment of its link (the session start of 8.3.3.1.1.4,
/// a client's subscription): each is resumed once, all together, with success or with why the
/// link ended. Used inside the transport's actor only.
struct LinkWaiters {
    private var waiting: [CheckedContinuation<Result<Void, BLEError>, Never>] = []

    /// Whether nobody waits.
    var isEmpty: Bool { waiting.isEmpty }

    /// Adds a task that waits until ``resumeAll(_:)``.
    mutating func wait(_ continuation: CheckedContinuation<Result<Void, BLEError>, Never>) {
        waiting.append(continuation)
    }

    /// Resumes every waiting task with `result` and forgets them.
    mutating func resumeAll(_ result: Result<Void, BLEError>) {
        let resumed = waiting
        waiting = []
        for continuation in resumed { continuation.resume(returning: result) }
    }
}
