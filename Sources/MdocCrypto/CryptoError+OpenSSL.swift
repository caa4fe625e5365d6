import COpenSSL

extension CryptoError {
    /// An error for a failed OpenSSL call, with OpenSSL's reason text for the most recent queued
    /// error appended.
    ///
    /// Empties the thread's OpenSSL error queue, so the next call starts clean. OpenSSL's reason
    /// strings name the failure kind only (never key material).
    static func openSSL(_ code: Code, _ reason: String) -> CryptoError {
        var last: UInt = 0
        while true {
            let next = ERR_get_error()
            if next == 0 { break }
            last = next
        }
        guard last != 0, let text = ERR_reason_error_string(last) else {
            return CryptoError(code, reason)
        }
        return CryptoError(code, "\(reason) (OpenSSL: \(String(cString: text)))")
    }
}
