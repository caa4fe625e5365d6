import MdocCBOR

/// The identifier under which the verifier keeps a request until its answer: 16 random bytes,
/// base64url (22 characters). It names the request in `POST /requests/{id}/response`; being
/// unguessable, it also keeps others from answering or spending a request they did not make.
public struct RequestID: Sendable, Hashable, CustomStringConvertible {
    /// 16 bytes: the randomness of an identifier.
    public static let byteCount = 16

    /// The base64url text.
    public let text: String

    /// A fresh identifier from the system's random number generator.
    public static func random() -> RequestID {
        var generator = SystemRandomNumberGenerator()
        return RequestID(text: Base64URL.encode((0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }))
    }

    private init(text: String) {
        self.text = text
    }

    /// The identifier `text` of a URL path; throws `malformedID` (400) unless it is the
    /// base64url of ``byteCount`` bytes.
    public init(parsing text: String) throws(ServiceError) {
        guard text.utf8.count == (Self.byteCount * 4 + 2) / 3, let bytes = Base64URL.decode(text), bytes.count == Self.byteCount else {
            throw ServiceError(.badRequest, "malformedID", "the request id in the path is not the base64url of \(Self.byteCount) bytes")
        }
        self.text = text
    }

    /// The base64url text.
    public var description: String { text }
}
