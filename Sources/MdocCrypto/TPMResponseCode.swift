import COpenSSL

/// The TPM's answer to a command that failed, as tpm2-openssl reports it: the TSS2 return code
/// in decimal at the start of its error data ("2337 tpm:warn(2.0): ..."). Only what the TPM
/// itself answered (TSS2 layer 0) is read; the codes are those of TPM 2.0 Part 2, 6.6.
enum TPMResponseCode: Equatable {
    /// TPM_RC_LOCKOUT (RC_WARN + 0x021): the TPM is in dictionary-attack lock-out.
    case lockout
    /// TPM_RC_AUTH_FAIL (RC_FMT1 + 0x00E, the DA counter incremented) or TPM_RC_BAD_AUTH
    /// (RC_FMT1 + 0x022): the authorization value was wrong.
    case authorizationFailure
    /// Any other response code.
    case other(UInt32)

    /// The code of a response: format-one codes (bit 7 set) carry the handle, session or
    /// parameter number in bits 8 to 11, which are set aside.
    init(_ code: UInt32) {
        if code & 0x80 != 0 {
            switch code & 0xBF {
            case 0x8E, 0xA2: self = .authorizationFailure
            default: self = .other(code)
            }
        } else if code == 0x921 {
            self = .lockout
        } else {
            self = .other(code)
        }
    }

    /// The TPM's response code in the first or last error of OpenSSL's queue that tpm2-openssl
    /// queued with one, left in the queue.
    static func reported() -> TPMResponseCode? {
        var data: UnsafePointer<CChar>?
        var flags: Int32 = 0
        for peek in [{ ERR_peek_error_data(&data, &flags) }, { ERR_peek_last_error_data(&data, &flags) }] {
            data = nil
            guard peek() != 0, let data, flags & ERR_TXT_STRING != 0 else { continue }
            if let code = parse(String(cString: data)) { return code }
        }
        return nil
    }

    /// The code at the start of `text` when it is a TPM's ("NUMBER tpm:..."), else `nil`.
    static func parse(_ text: String) -> TPMResponseCode? {
        let parts = text.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[1].hasPrefix("tpm:"), let value = UInt32(parts[0]), value & 0xFFFF_0000 == 0 else {
            return nil
        }
        return TPMResponseCode(value)
    }
}
