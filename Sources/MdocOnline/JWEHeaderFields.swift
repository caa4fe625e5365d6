import MdocCBOR
import MdocCrypto
import MdocText

/// The members of a JWE protected header, read with their types checked (RFC 7516 section 4,
/// RFC 7518 sections 4.6.1 and 6.2.1): every failure is an ``OnlineError`` naming the member.
struct HeaderFields {
    private let members: [(String, JSONValue)]

    init(_ header: JSONValue) throws(OnlineError) {
        guard case .object(let members) = header else {
            throw OnlineError(.malformedJWE, "the JWE protected header is not a JSON object")
        }
        self.members = members
    }

    func has(_ name: String) -> Bool {
        members.contains { $0.0 == name }
    }

    /// A string member, or `nil` when absent.
    func string(_ name: String) throws(OnlineError) -> String? {
        try Self.string(name, in: members, of: "JWE protected header")
    }

    /// A base64url member decoded, or `nil` when absent.
    func bytes(_ name: String) throws(OnlineError) -> [UInt8]? {
        guard let text = try string(name) else { return nil }
        guard !text.contains("="), let bytes = Base64URL.decode(text) else {
            throw OnlineError(.malformedJWE, "the JWE \"\(name)\" is not base64url without padding")
        }
        return bytes
    }

    /// `epk`: an EC P-256 public JWK (`kty` "EC", `crv` "P-256", `x` and `y` of 32 bytes each) whose
    /// point is on the curve, with no private member `d`.
    func ephemeralKey() throws(OnlineError) -> PublicKey {
        guard let value = members.first(where: { $0.0 == "epk" })?.1 else {
            throw OnlineError(.invalidEphemeralKey, "the JWE protected header has no \"epk\", which ECDH-ES needs")
        }
        guard case .object(let key) = value else {
            throw OnlineError(.invalidEphemeralKey, "the JWE \"epk\" is not a JSON object")
        }
        let keyType = try Self.string("kty", in: key, of: "epk")
        let curve = try Self.string("crv", in: key, of: "epk")
        guard keyType == "EC", curve == Curve.p256.rawValue else {
            throw OnlineError(
                .invalidEphemeralKey,
                "the JWE \"epk\" is kty \"\(UntrustedText.escaped(keyType ?? ""))\", crv \"\(UntrustedText.escaped(curve ?? ""))\"; only an EC P-256 key is accepted")
        }
        guard !key.contains(where: { $0.0 == "d" }) else {
            throw OnlineError(.invalidEphemeralKey, "the JWE \"epk\" carries a private key (\"d\")")
        }
        var coordinates: [[UInt8]] = []
        for name in ["x", "y"] {
            guard let text = try Self.string(name, in: key, of: "epk"), !text.contains("="), let bytes = Base64URL.decode(text),
                  bytes.count == Curve.p256.coordinateByteCount
            else {
                throw OnlineError(
                    .invalidEphemeralKey, "the JWE \"epk\" \"\(name)\" is not \(Curve.p256.coordinateByteCount) bytes of base64url")
            }
            coordinates.append(bytes)
        }
        do {
            return try PublicKey(x: coordinates[0], y: coordinates[1], curve: .p256)
        } catch {
            throw OnlineError(.invalidEphemeralKey, "the JWE \"epk\" is not a P-256 public key: \(error.reason)")
        }
    }

    private static func string(_ name: String, in members: [(String, JSONValue)], of object: String) throws(OnlineError) -> String? {
        guard let value = members.first(where: { $0.0 == name })?.1 else { return nil }
        guard case .string(let text) = value else {
            throw OnlineError(.malformedJWE, "the \(object) member \"\(name)\" is not a string")
        }
        return text
    }
}
