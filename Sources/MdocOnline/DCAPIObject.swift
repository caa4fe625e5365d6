import MdocCBOR
import MdocCrypto
import MdocModel
import MdocText

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One JSON object of online presentation (an ISO/IEC TS 18013-7 Annex C or OpenID4VP 1.0
/// request, a response, a verifier's state, or an object inside one), read with its size, depth
/// and member types checked: every failure is an ``OnlineError`` of one code, naming the object
/// and the member.
struct DCAPIObject {
    private let members: [(String, JSONValue)]
    private let name: String
    private let code: OnlineError.Code

    /// Reads `bytes` as the JSON object `name`, refusing more than `limit` bytes with
    /// `.inputTooLarge` and anything else that is wrong (deeper than `maximumDepth` included)
    /// with `code`.
    init(
        _ bytes: [UInt8], name: String, limit: Int, code: OnlineError.Code, maximumDepth: Int = DCAPILimits.maximumJSONDepth
    ) throws(OnlineError) {
        guard bytes.count <= limit else {
            throw OnlineError(.inputTooLarge, "the \(name) has \(bytes.count) bytes, more than the limit of \(limit)")
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes, maximumDepth: maximumDepth)
        } catch {
            throw OnlineError(code, "the \(name) is not JSON this reads: \(error.reason) (line \(error.line), column \(error.column))")
        }
        try self.init(value, name: name, code: code)
    }

    /// `value`, an object already parsed, as the object `name`.
    init(_ value: JSONValue, name: String, code: OnlineError.Code) throws(OnlineError) {
        guard case .object(let members) = value else {
            throw OnlineError(code, "the \(name) is not a JSON object")
        }
        self.members = members
        self.name = name
        self.code = code
    }

    /// The member names, in the order read.
    var names: [String] { members.map(\.0) }

    /// The member `member`, or `nil` when absent.
    func value(_ member: String) -> JSONValue? {
        members.first(where: { $0.0 == member })?.1
    }

    /// The string member `member`.
    func string(_ member: String) throws(OnlineError) -> String {
        guard let text = try optionalString(member) else {
            throw OnlineError(code, "the \(name) has no \"\(member)\"")
        }
        return text
    }

    /// The string member `member`, or `nil` when absent.
    func optionalString(_ member: String) throws(OnlineError) -> String? {
        guard let value = value(member) else { return nil }
        guard case .string(let text) = value else {
            throw OnlineError(code, "the \(name) member \"\(member)\" is not a string")
        }
        return text
    }

    /// The string member `member`, base64url without padding, decoded.
    func bytes(_ member: String) throws(OnlineError) -> [UInt8] {
        let text = try string(member)
        guard !text.contains("="), let bytes = Base64URL.decode(text) else {
            throw OnlineError(code, "the \(name) member \"\(member)\" is not base64url without padding")
        }
        return bytes
    }

    /// The string member `member`, an RFC 3339 date-time.
    func date(_ member: String) throws(OnlineError) -> Date {
        let text = try string(member)
        do {
            return try TDate(text: text).date
        } catch {
            throw OnlineError(code, "the \(name) member \"\(member)\" is not an RFC 3339 date-time")
        }
    }

    /// The string member `member`, the base64url scalar of a P-256 private key.
    func privateKey(_ member: String) throws(OnlineError) -> PrivateKey {
        let scalar = try bytes(member)
        do {
            return try PrivateKey(rawRepresentation: scalar, curve: .p256)
        } catch {
            throw OnlineError(code, "the \(name) member \"\(member)\" is not a P-256 private key: \(error.reason)")
        }
    }

    /// The object member `member`, named `"name"."member"` in errors, or `nil` when absent.
    func object(_ member: String) throws(OnlineError) -> DCAPIObject? {
        guard let value = value(member) else { return nil }
        return try DCAPIObject(value, name: "\(name) \"\(member)\"", code: code)
    }

    /// The array member `member`: at least one element, at most `limit`, or `nil` when absent.
    func array(_ member: String, limit: Int) throws(OnlineError) -> [JSONValue]? {
        guard let value = value(member) else { return nil }
        guard case .array(let elements) = value, !elements.isEmpty else {
            throw OnlineError(code, "the \(name) member \"\(member)\" is not a non-empty array")
        }
        guard elements.count <= limit else {
            throw OnlineError(code, "the \(name) member \"\(member)\" has \(elements.count) elements, more than the limit of \(limit)")
        }
        return elements
    }

    /// The array-of-strings member `member` (see ``array(_:limit:)``), or `nil` when absent.
    func strings(_ member: String, limit: Int) throws(OnlineError) -> [String]? {
        guard let elements = try array(member, limit: limit) else { return nil }
        var texts: [String] = []
        for element in elements {
            guard case .string(let text) = element else {
                throw OnlineError(code, "the \(name) member \"\(member)\" holds something that is not a string")
            }
            texts.append(text)
        }
        return texts
    }

    /// The boolean member `member`, or `nil` when absent.
    func bool(_ member: String) throws(OnlineError) -> Bool? {
        guard let value = value(member) else { return nil }
        guard case .bool(let flag) = value else {
            throw OnlineError(code, "the \(name) member \"\(member)\" is not true or false")
        }
        return flag
    }
}
