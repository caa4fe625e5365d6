import MdocCBOR

/// Bytes from a hex literal in a test (the literal is known-good; a bad digit fails the test).
func hex(_ text: String) -> [UInt8] {
    Hex.decode(text.filter { !$0.isWhitespace }) ?? []
}
