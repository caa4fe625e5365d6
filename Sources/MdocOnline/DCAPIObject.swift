import MdocCBOR
import MdocText

/// One JSON object of ISO/IEC TS 18013-7 Annex C (a request, a response, a verifier's state),
/// read with its size, depth and member types checked: every failure is an ``OnlineError`` of
/// one code, naming the object and the member.
struct DCAPIObject {
    private let members: [(String, JSONValue)]
    private let name: String
    private let code: OnlineError.Code

    /// Reads `bytes` as the JSON object `name`, refusing more than `limit` bytes with
    /// `.inputTooLarge` and anything else that is wrong with `code`.
    init(_ bytes: [UInt8], name: String, limit: Int, code: OnlineError.Code) throws(OnlineError) {
        guard bytes.count <= limit else {
            throw OnlineError(.inputTooLarge, "the \(name) has \(bytes.count) bytes, more than the limit of \(limit)")
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes, maximumDepth: DCAPILimits.maximumJSONDepth)
        } catch {
            throw OnlineError(code, "the \(name) is not JSON this reads: \(error.reason) (line \(error.line), column \(error.column))")
        }
        guard case .object(let members) = value else {
            throw OnlineError(code, "the \(name) is not a JSON object")
        }
        self.members = members
        self.name = name
        self.code = code
    }

    /// The string member `member`.
    func string(_ member: String) throws(OnlineError) -> String {
        guard let value = members.first(where: { $0.0 == member })?.1 else {
            throw OnlineError(code, "the \(name) has no \"\(member)\"")
        }
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
}
