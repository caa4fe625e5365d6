/// A response APDU (ISO/IEC 7816-4 5.1): a response data field, perhaps empty, and the status
/// word SW1-SW2 that ends it.
public struct ResponseAPDU: Sendable, Hashable, CustomStringConvertible {
    /// The response data field.
    public var data: [UInt8]
    /// The status word.
    public var statusWord: StatusWord

    /// A response of `data` ended by `statusWord`.
    public init(data: [UInt8] = [], statusWord: StatusWord) {
        self.data = data
        self.statusWord = statusWord
    }

    /// The data followed by SW1 and SW2.
    public var bytes: [UInt8] {
        data + [statusWord.sw1, statusWord.sw2]
    }

    /// Reads a response: at least the two bytes of the status word, the data before them.
    public init(bytes: [UInt8]) throws(NFCError) {
        guard bytes.count >= 2 else {
            throw NFCError(.truncated, "a response APDU ends with a 2-byte status word, \(bytes.count) bytes came", offset: bytes.count)
        }
        data = Array(bytes[..<(bytes.count - 2)])
        statusWord = StatusWord(sw1: bytes[bytes.count - 2], sw2: bytes[bytes.count - 1])
    }

    /// `R-APDU n data bytes, SW 9000`.
    public var description: String {
        "R-APDU \(data.count) data bytes, SW \(statusWord)"
    }
}
