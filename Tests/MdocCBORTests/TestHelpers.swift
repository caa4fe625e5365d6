import MdocCBOR
import Testing

/// The bytes of hex text written in a test.
func bytes(_ hex: String) throws -> [UInt8] {
    try #require(Hex.decode(hex), "bad hex in test: \(hex)")
}

/// The error decoding `input` throws, or `nil` when it decodes.
func decodingError(_ input: [UInt8], limits: CBORLimits = .default) -> CBORError? {
    do {
        _ = try CBOR.decode(input, limits: limits)
        return nil
    } catch {
        return error
    }
}

/// The error decoding the hex text `hex` throws, or `nil` when it decodes.
func decodingError(hex: String, limits: CBORLimits = .default) throws -> CBORError? {
    decodingError(try bytes(hex), limits: limits)
}
