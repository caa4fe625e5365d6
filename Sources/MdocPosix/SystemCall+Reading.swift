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
    package static func readToEnd(_ descriptor: Int32, limit: Int?) -> Result<[UInt8], ReadFailure> {
        var bytes: [UInt8] = []
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
