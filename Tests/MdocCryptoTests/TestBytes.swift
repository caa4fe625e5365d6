/// Bytes from a hex literal in a test (the literal is known-good; a bad digit fails the test).
func hex(_ text: String) -> [UInt8] {
    let digits = Array(text.utf8)
    var bytes: [UInt8] = []
    var index = 0
    while index + 1 < digits.count {
        let pair = String(decoding: digits[index...index + 1], as: UTF8.self)
        bytes.append(UInt8(pair, radix: 16) ?? 0xEE)
        index += 2
    }
    return bytes
}

/// `bytes` with one bit flipped at `index`.
func flippingBit(_ bytes: [UInt8], at index: Int) -> [UInt8] {
    var copy = bytes
    copy[index] ^= 0x01
    return copy
}
