import MdocCBOR
import MdocFiles
import MdocText

/// A JWS in compact serialization (RFC 7515 section 7.1): three base64url parts joined by
/// dots, the protected header and the payload JSON, as ISO/IEC 18013-5 8.3.2.2 server retrieval
/// returns documents.
///
/// Reading only decodes; the signature is not checked.
public struct JWSCompact: Sendable {
    /// The most nested JSON arrays and objects read from a header or payload.
    static let maximumJSONDepth = 32

    /// The JOSE header.
    public let header: JSONValue
    /// The payload as JSON, or `nil` when it is not JSON.
    public let payload: JSONValue?
    /// The payload bytes.
    public let payloadBytes: [UInt8]
    /// The signature bytes.
    public let signature: [UInt8]

    /// Reads `text` (surrounding whitespace ignored); `nil` unless it has three base64url parts
    /// and the first decodes as a JSON object.
    public init?(_ text: String) {
        let parts = text.trimmingASCIIWhitespace().split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty,
            let headerBytes = Base64URL.decode(parts[0]), let payloadBytes = Base64URL.decode(parts[1]),
            let signature = Base64URL.decode(parts[2]),
            let header = try? JSONParser.parse(headerBytes, maximumDepth: Self.maximumJSONDepth),
            case .object = header
        else { return nil }
        self.header = header
        self.payloadBytes = payloadBytes
        self.payload = try? JSONParser.parse(payloadBytes, maximumDepth: Self.maximumJSONDepth)
        self.signature = signature
    }

    /// The member `name` of the header, when the header has it.
    public func headerParameter(_ name: String) -> JSONValue? {
        guard case .object(let members) = header else { return nil }
        return members.first { $0.0 == name }?.1
    }
}
