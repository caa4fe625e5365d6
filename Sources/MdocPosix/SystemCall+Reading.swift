import Glibc

extension SystemCall {
    /// Why ``readToEnd(_:limit:)`` gave no bytes.
    package enum ReadFailure: Error, Equatable {
        /// A read failed with this errno.
        case errno(Int32)
        /// More than the limit arrived.
        case tooLarge
    }

    /// What `descriptor` gives until its end, read in 64 KiB pieces, each read made again after
    /// EINTR. With a `limit`, at most `limit` + 1 octets are read: one more than `limit` is
    /// `tooLarge`. Files of /proc read this way whole, though their size says 0.
    /// A regular file's size is known beforehand: the bytes are read into one allocation of that
    /// size (within the limit), not into an array that doubles as it grows and keeps up to twice
    /// the file's size.
    package static func readToEnd(_ descriptor: Int32, limit: Int?) -> Result<[UInt8], ReadFailure> {
        var bytes: [UInt8] = []
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size > 0 {
            let size = Int(status.st_size)
            bytes.reserveCapacity(limit.map { min(size, $0 + 1) } ?? size)
        }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let wanted = limit.map { min(chunk.count, $0 + 1 - bytes.count) } ?? chunk.count
            let result = chunk.withUnsafeMutableBytes { buffer in make { read(descriptor, buffer.baseAddress, wanted) } }
            guard case .success(let count) = result else { return .failure(.errno(result.failureCode)) }
            if count == 0 { return .success(bytes) }
            bytes += chunk[..<count]
            if let limit, bytes.count > limit { return .failure(.tooLarge) }
        }
    }
}
