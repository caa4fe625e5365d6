#if canImport(Glibc)
import Glibc
import MdocPosix
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a whole file, stopping one byte past a size limit so that a huge file is rejected
/// without being read whole. Shared by the image and policy file readers, which wrap the
/// failure in their own error types.
package enum BoundedFileReader {
    /// Why a file could not be read.
    package enum Failure: Error {
        /// `open` failed; the system's reason.
        case cannotOpen(String)
        /// `read` failed; the system's reason.
        case readFailed(String)
        /// The file is larger than the limit.
        case tooLarge
    }

    /// The bytes of `path`, at most `maximumSize` of them.
    package static func contents(of path: String, maximumSize: Int) throws(Failure) -> [UInt8] {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw .cannotOpen(String(cString: strerror(errno))) }
        defer { close(fd) }
        switch SystemCall.readToEnd(fd, limit: maximumSize) {
        case .success(let bytes): return bytes
        case .failure(.tooLarge): throw .tooLarge
        case .failure(.errno(let code)): throw .readFailed(String(cString: strerror(code)))
        }
    }
}
