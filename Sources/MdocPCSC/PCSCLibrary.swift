import CPCSC

/// The few facts of pcsc-lite's client library (libpcsclite 1.9.9, winscard.h and pcsclite.h)
/// that the rest of the module uses, as Swift values: the constants whose C macros carry casts
/// Swift does not import, the result text, and the readers' multi-string.
enum PCSCLibrary {
    /// `SCARD_SCOPE_SYSTEM`: the one scope pcsc-lite has.
    static let systemScope = DWORD(0x0002)
    /// The receive buffer of a transmission, `MAX_BUFFER_SIZE_EXTENDED`: an extended APDU's
    /// header, Lc and Le around 65536 octets of data, and the status word (pcsclite.h).
    static let extendedBufferSize = 4 + 3 + (1 << 16) + 3 + 2
    /// The reader name pcsc-lite reports the arrival and the departure of readers on, whose
    /// event state counts the readers in its upper 16 bits (pcsc-lite's SCardGetStatusChange).
    static let plugAndPlayReader = "\\\\?PnP?\\Notification"

    /// What pcsc-lite says of `code` (pcsc_stringify_error).
    static func text(of code: PCSCResponseCode) -> String {
        String(cString: pcsc_stringify_error(LONG(code.rawValue)))
    }

    /// The result code of a call's `LONG` result.
    static func responseCode(_ result: LONG) -> PCSCResponseCode {
        PCSCResponseCode(rawValue: UInt32(truncatingIfNeeded: result))
    }

    /// The names in a PC/SC multi-string: NUL-terminated strings one after another, ended by an
    /// empty one (SCardListReaders).
    static func names(inMultiString bytes: [CChar]) -> [String] {
        bytes.split(separator: 0, omittingEmptySubsequences: true).map { name in
            String(decoding: name.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }
}
