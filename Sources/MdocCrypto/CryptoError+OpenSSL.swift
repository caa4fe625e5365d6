import COpenSSL

extension CryptoError {
    /// An error for a failed OpenSSL call, with OpenSSL's reason text for the most recent queued
    /// error appended; for an error whose reason OpenSSL has no text for (a provider's own, such
    /// as tpm2-openssl's or pkcs11-provider's), its code in OpenSSL's `error:CODE:LIBRARY::REASON`
    /// form, so that the failure can still be told apart.
    ///
    /// Empties the thread's OpenSSL error queue, so the next call starts clean. OpenSSL's reason
    /// strings and codes name the failure kind only (never key material).
    static func openSSL(_ code: Code, _ reason: String) -> CryptoError {
        var last: UInt = 0
        while true {
            let next = ERR_get_error()
            if next == 0 { break }
            last = next
        }
        guard last != 0 else { return CryptoError(code, reason) }
        if let text = ERR_reason_error_string(last) {
            return CryptoError(code, "\(reason) (OpenSSL: \(String(cString: text)))")
        }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(last, &buffer, buffer.count)
        let text = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return CryptoError(code, "\(reason) (OpenSSL: \(String(decoding: text, as: UTF8.self)))")
    }
}
