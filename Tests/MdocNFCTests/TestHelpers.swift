import MdocCBOR
import MdocNFC
import Testing

/// Bytes from hexadecimal written in a test; a typo fails the test that uses them.
func hex(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [UInt8] {
    guard let bytes = Hex.decode(text.filter { !$0.isWhitespace }) else {
        Issue.record("not hexadecimal: \(text)", sourceLocation: sourceLocation)
        return []
    }
    return bytes
}

/// The code of `body`'s error, or `nil` when it does not throw.
func errorCode<T>(_ body: () throws -> T, sourceLocation: SourceLocation = #_sourceLocation) -> NFCError.Code? {
    do {
        _ = try body()
        return nil
    } catch let error as NFCError {
        return error.code
    } catch {
        Issue.record("not an NFCError: \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// The code of `body`'s error, or `nil` when it does not throw.
func errorCode<T>(_ body: () async throws -> T, sourceLocation: SourceLocation = #_sourceLocation) async -> NFCError.Code? {
    do {
        _ = try await body()
        return nil
    } catch let error as NFCError {
        return error.code
    } catch {
        Issue.record("not an NFCError: \(error)", sourceLocation: sourceLocation)
        return nil
    }
}
