import COpenSSL

/// OpenSSL memory BIOs for the PEM and DER readers and writers.
enum MemoryBIO {
    /// Runs `body` with a read-only BIO over `bytes`; `nil` when OpenSSL cannot make one. The
    /// caller has bounded `bytes.count` well below `Int32.max`.
    static func reading<R>(_ bytes: [UInt8], _ body: (OpaquePointer) -> R) -> R? {
        bytes.withUnsafeBytes { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return body(bio)
        }
    }

    /// The bytes `write` puts into a fresh memory BIO, or `nil` when it or OpenSSL fails. With
    /// `secure`, the BIO is `BIO_s_secmem`, whose buffer is wiped when freed (for private keys).
    static func written(secure: Bool, _ write: (OpaquePointer) -> Bool) -> [UInt8]? {
        guard let bio = BIO_new(secure ? BIO_s_secmem() : BIO_s_mem()) else { return nil }
        defer { BIO_free(bio) }
        guard write(bio) else { return nil }
        let pending = Int(BIO_ctrl_pending(bio))
        guard pending > 0, pending <= Int(Int32.max) else { return nil }
        var output = [UInt8](repeating: 0, count: pending)
        let read = output.withUnsafeMutableBytes { BIO_read(bio, $0.baseAddress, Int32(pending)) }
        return read == Int32(pending) ? output : nil
    }
}
