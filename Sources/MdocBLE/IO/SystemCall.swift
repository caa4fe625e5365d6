import Glibc

/// Turns failed system calls into `BLEError`s that name the call, what it was doing and errno.
enum SystemCall {
    /// A `systemCall` error for `call` failing with `code` while doing `what`.
    static func failure(_ call: String, _ code: Int32, _ what: String) -> BLEError {
        BLEError(.systemCall, "\(call) failed while \(what): \(String(cString: strerror(code))) (errno \(code))")
    }

    /// Marks `fd` close-on-exec (for descriptors from calls without a flag argument).
    static func setCloseOnExec(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFD)
        if flags >= 0 { _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
    }

    /// Makes `fd` non-blocking; false when fcntl(2) failed.
    static func setNonBlocking(_ fd: Int32) -> Bool {
        let flags = fcntl(fd, F_GETFL)
        return flags >= 0 && fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0
    }
}
