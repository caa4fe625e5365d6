import COpenSSL

/// PEM text (RFC 7468) read and written by OpenSSL's `PEM_read_bio` / `PEM_write_bio`.
enum CertificatePEM {
    /// The decoded contents of every block whose label is `label`, in order. Blocks with other
    /// labels are skipped. A block that does not decode (bad base64, no end line) is an error.
    static func derBlocks(labelled label: String, in text: String) throws(CryptoError) -> [[UInt8]] {
        // The BIO reads the C string in place (length -1: up to its NUL), so all reading happens
        // while withCString keeps the buffer alive.
        let outcome: Result<[[UInt8]], CryptoError> = text.withCString { cString in
            guard let bio = BIO_new_mem_buf(cString, -1) else {
                return .failure(CryptoError(.libraryFailure, "PEM: OpenSSL could not allocate a memory BIO"))
            }
            defer { BIO_free(bio) }
            return readBlocks(labelled: label, from: bio)
        }
        return try outcome.get()
    }

    private static func readBlocks(labelled label: String, from bio: OpaquePointer) -> Result<[[UInt8]], CryptoError> {
        ERR_clear_error()
        var blocks: [[UInt8]] = []
        var blockIndex = 0
        while true {
            var name: UnsafeMutablePointer<CChar>? = nil
            var header: UnsafeMutablePointer<CChar>? = nil
            var data: UnsafeMutablePointer<UInt8>? = nil
            var length = 0
            let status = PEM_read_bio(bio, &name, &header, &data, &length)
            defer {
                CRYPTO_free(name, #fileID, #line)
                CRYPTO_free(header, #fileID, #line)
                CRYPTO_free(data, #fileID, #line)
            }
            guard status == 1 else {
                let error = ERR_peek_last_error()
                ERR_clear_error()
                if ERR_GET_LIB(error) == ERR_LIB_PEM && ERR_GET_REASON(error) == PEM_R_NO_START_LINE {
                    return .success(blocks)
                }
                return .failure(CryptoError(.invalidEncoding, "PEM: block \(blockIndex) does not decode"))
            }
            if let name, String(cString: name) == label, let data, length > 0 {
                blocks.append(Array(UnsafeBufferPointer(start: data, count: length)))
            }
            blockIndex += 1
        }
    }

    /// `derBytes` as one PEM block with the given label.
    static func pem(labelled label: String, derBytes: [UInt8]) -> String {
        guard let bio = BIO_new(BIO_s_mem()) else { return "" }
        defer { BIO_free(bio) }
        let written = derBytes.withUnsafeBufferPointer { buffer in
            PEM_write_bio(bio, label, "", buffer.baseAddress, buffer.count)
        }
        guard written > 0 else {
            ERR_clear_error()
            return ""
        }
        var text: UnsafeMutablePointer<CChar>? = nil
        let length = BIO_ctrl(bio, BIO_CTRL_INFO, 0, &text)
        guard length > 0, let text else { return "" }
        return text.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }
}
