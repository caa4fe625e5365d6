import Glibc
import MdocBLE

/// The one place the BLE modules make system calls of their own (SwiftNIO makes the calls of
/// the event loops and channels): a call interrupted by a signal (EINTR) is made again, and a
/// failure becomes its errno, or a `BLEError` that names the call, what it was doing and errno.
package enum SystemCall {
    /// The errno of a failed system call.
    package struct Errno: Error, Equatable {
        /// The error number (errno(3)).
        package let code: Int32

        /// The error `code`.
        package init(code: Int32) {
            self.code = code
        }
    }

    /// Makes the system call `body`, which returns -1 and sets errno when it fails, again while
    /// it fails with EINTR; its result, or errno.
    package static func make<Value: FixedWidthInteger>(_ body: () -> Value) -> Result<Value, Errno> {
        while true {
            let result = body()
            if result != -1 { return .success(result) }
            let code = errno
            if code != EINTR { return .failure(Errno(code: code)) }
        }
    }

    /// Makes the system call `body` as ``make(_:)`` does; a failure throws `systemCall` naming
    /// `name` and `what` it was doing.
    @discardableResult
    package static func make<Value: FixedWidthInteger>(
        _ name: String, _ what: @autoclosure () -> String, _ body: () -> Value
    ) throws(BLEError) -> Value {
        switch make(body) {
        case .success(let value): return value
        case .failure(let error): throw failure(name, error.code, what())
        }
    }

    /// A `systemCall` error for `call` failing with `code` while doing `what`.
    package static func failure(_ call: String, _ code: Int32, _ what: String) -> BLEError {
        BLEError(.systemCall, "\(call) failed while \(what): \(String(cString: strerror(code))) (errno \(code))")
    }
}

extension Result where Failure == SystemCall.Errno {
    /// The errno of a failed call, 0 for one that succeeded.
    package var failureCode: Int32 {
        if case .failure(let error) = self { return error.code }
        return 0
    }
}
