import Glibc

/// Work that blocks (waiting for a child's end, a person's answer, a helper's start) run on a
/// thread of its own, away from Swift concurrency's cooperative pool, whose few threads must never
/// wait: a detached POSIX thread (pthread_create(3)) that runs the work once and ends.
///
/// Foundation's `Thread` does the same, but it was the only thing the programs took from
/// Foundation beyond FoundationEssentials, and loading Foundation (with CoreFoundation and ICU)
/// costs every program's start-up about 3 ms.
package enum DetachedThread {
    /// Runs `work` on a new detached thread; the error number pthread_create(3) gives when the
    /// system has no thread for it (EAGAIN), and then `work` never runs.
    package static func start(_ work: @escaping @Sendable () -> Void) throws(SystemCall.Errno) {
        let context = Unmanaged.passRetained(Work(work)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, { context in
            guard let context else { return nil }
            Unmanaged<Work>.fromOpaque(context).takeRetainedValue().body()
            return nil
        }, context)
        guard result == 0 else {
            Unmanaged<Work>.fromOpaque(context).release()
            throw SystemCall.Errno(code: result)
        }
    }

    /// The work, carried to the new thread as its one argument.
    private final class Work: Sendable {
        let body: @Sendable () -> Void

        init(_ body: @escaping @Sendable () -> Void) {
            self.body = body
        }
    }
}
