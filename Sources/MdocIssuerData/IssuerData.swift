import MdocCBOR
import MdocFiles
import MdocModel
import MdocText

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The data elements of a document to issue, read from the JSON issuer data format of
/// docs/issuer-data-format.md:
///
/// ```json
/// {"nameSpaces": {"org.iso.18013.5.1": {
///     "family_name": "Doe",
///     "birth_date": {"full-date": "1990-01-01"},
///     "portrait": {"bytes-file": "portrait.jpg"},
///     "age_over_18": true}}}
/// ```
///
/// JSON strings, integers, fractions, booleans, null, arrays and objects become the CBOR text
/// strings, integers, floats, simple values, arrays and maps of the element values (ISO/IEC
/// 18013-5 7.2.1, 8.3.2.1.2.2); an object with exactly one of the keys `full-date`, `tdate`,
/// `bytes-file`, `bytes-hex` or `bytes-base64` becomes a `full-date` (tag 1004, RFC 8943), a
/// `tdate` (tag 0, RFC 8949 section 3.4.1) or a byte string. Name spaces and elements keep the
/// order of the file.
package struct IssuerData: Sendable {
    /// The deepest nesting of JSON arrays and objects accepted, the whole file included; far more
    /// than any 18013-5 element needs (driving_privileges is five levels down), and a bound on the
    /// parser's recursion.
    package static let maximumDepth = 16

    /// The keys that make an object with that one key a typed value: `full-date`, `tdate`,
    /// `bytes-file`, `bytes-hex`, `bytes-base64`.
    package static let typedValueKeys = ["full-date", "tdate", "bytes-file", "bytes-hex", "bytes-base64"]

    /// Name space → (element identifier, element value), in file order, as
    /// `DocumentIssuer.issue` takes them.
    package let nameSpaces: [(String, [(identifier: String, value: CBOR)])]

    /// Reads the data file at `path`; `bytes-file` paths are relative to its folder.
    package static func load(_ path: String) throws(IssuerDataError) -> IssuerData {
        let bytes = try readFile(path, source: path, location: "")
        // The folder part of the path: "." for a bare file name, "/" for a file at the root.
        let directory = path.lastIndex(of: "/").map { slash in slash == path.startIndex ? "/" : String(path[..<slash]) } ?? "."
        return try IssuerData(json: bytes, source: path, baseDirectory: directory)
    }

    /// Reads issuer data from JSON text. `source` names it in errors; relative `bytes-file` paths
    /// are resolved against `baseDirectory`.
    package init(json bytes: [UInt8], source: String, baseDirectory: String) throws(IssuerDataError) {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes, maximumDepth: Self.maximumDepth)
        } catch {
            let code: IssuerDataError.Code =
                switch error.kind {
                case .malformed: .malformedJSON
                case .tooDeep: .depthLimitExceeded
                case .duplicateKey: .duplicateKey
                case .outOfRange: .invalidValue
                }
            throw IssuerDataError(code, source: source, location: "line \(error.line), column \(error.column)", error.reason)
        }
        let converter = Converter(source: source, baseDirectory: baseDirectory)
        let root = "$"
        guard case .object(let members) = document else {
            throw converter.error(.unexpectedType, root, "expected an object with \"nameSpaces\", found \(Converter.typeName(document))")
        }
        guard let nameSpacesValue = members.first(where: { $0.0 == "nameSpaces" })?.1 else {
            throw converter.error(.unexpectedKey, root, "the key \"nameSpaces\" is missing")
        }
        if let other = members.first(where: { $0.0 != "nameSpaces" }) {
            throw converter.error(.unexpectedKey, root, "unknown key \"\(other.0)\" (only \"nameSpaces\" is defined)")
        }
        let nameSpacesPath = Converter.path(root, key: "nameSpaces")
        guard case .object(let nameSpaceMembers) = nameSpacesValue else {
            throw converter.error(.unexpectedType, nameSpacesPath, "expected an object of name spaces, found \(Converter.typeName(nameSpacesValue))")
        }
        guard !nameSpaceMembers.isEmpty else {
            throw converter.error(.invalidValue, nameSpacesPath, "no name space is given")
        }
        var result: [(String, [(identifier: String, value: CBOR)])] = []
        for (nameSpace, elementsValue) in nameSpaceMembers {
            let nameSpacePath = Converter.path(nameSpacesPath, key: nameSpace)
            guard !nameSpace.isEmpty else { throw converter.error(.invalidValue, nameSpacePath, "the name space is empty") }
            guard case .object(let elements) = elementsValue else {
                throw converter.error(.unexpectedType, nameSpacePath, "expected an object of data elements, found \(Converter.typeName(elementsValue))")
            }
            guard !elements.isEmpty else { throw converter.error(.invalidValue, nameSpacePath, "the name space holds no data element") }
            var converted: [(identifier: String, value: CBOR)] = []
            for (identifier, value) in elements {
                let elementPath = Converter.path(nameSpacePath, key: identifier)
                guard !identifier.isEmpty else { throw converter.error(.invalidValue, elementPath, "the element identifier is empty") }
                converted.append((identifier, try converter.cbor(value, at: elementPath)))
            }
            result.append((nameSpace, converted))
        }
        nameSpaces = result
    }

    /// Reads a whole file within ``InputSource/maximumInputSize``: the data file itself (`path`
    /// is `source`, no location) or a `bytes-file` it names at `location`.
    static func readFile(_ path: String, source: String, location: String) throws(IssuerDataError) -> [UInt8] {
        let file = path == source ? "" : "\(path): "
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw IssuerDataError(.unreadable, source: source, location: location, "\(file)cannot open: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        do {
            return try InputSource.readAll(fd: fd, name: path)
        } catch {
            throw IssuerDataError(.unreadable, source: source, location: location, "\(file)\(error.reason)")
        }
    }
}

/// Turns JSON values into element values, naming the JSON path of anything wrong.
private struct Converter {
    let source: String
    let baseDirectory: String

    func error(_ code: IssuerDataError.Code, _ location: String, _ reason: String) -> IssuerDataError {
        IssuerDataError(code, source: source, location: location, reason)
    }

    /// `parent["key"]`, the key written as a JSON string.
    static func path(_ parent: String, key: String) -> String {
        parent + "[" + JSONValue.string(key).serialized() + "]"
    }

    static func typeName(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .int, .bigInteger: return "an integer"
        case .double: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    func cbor(_ value: JSONValue, at path: String) throws(IssuerDataError) -> CBOR {
        switch value {
        case .null: return .null
        case .bool(let flag): return .boolean(flag)
        case .int(let number): return CBOR(number)
        case .bigInteger(let digits): throw error(.invalidValue, path, "the integer \(digits) is outside the 64-bit range")
        case .double(let number): return .float(number)
        case .string(let text): return .textString(text)
        case .array(let items):
            var converted: [CBOR] = []
            for (index, item) in items.enumerated() {
                converted.append(try cbor(item, at: "\(path)[\(index)]"))
            }
            return .array(converted)
        case .object(let members):
            if let typed = members.first(where: { IssuerData.typedValueKeys.contains($0.0) }) {
                guard members.count == 1 else {
                    throw error(
                        .unexpectedKey, path,
                        "a typed value has exactly one key, \"\(typed.0)\", but this object has \(members.count): "
                            + members.map { "\"\($0.0)\"" }.joined(separator: ", "))
                }
                return try typedValue(typed.0, typed.1, at: Self.path(path, key: typed.0))
            }
            var map = CBORMap()
            for (key, member) in members {
                map.append(.textString(key), try cbor(member, at: Self.path(path, key: key)))
            }
            return .map(map)
        }
    }

    private func typedValue(_ key: String, _ value: JSONValue, at path: String) throws(IssuerDataError) -> CBOR {
        guard case .string(let text) = value else {
            throw error(.unexpectedType, path, "expected a string, found \(Self.typeName(value))")
        }
        switch key {
        case "full-date":
            guard let date = FullDate(text) else {
                throw error(.invalidValue, path, "\"\(text)\" is not a full-date (YYYY-MM-DD, a day that exists)")
            }
            return date.cbor
        case "tdate":
            do {
                return try TDate(text: text).cbor
            } catch {
                throw self.error(.invalidValue, path, "\"\(text)\" is not an RFC 3339 date-time (for example 2024-01-01T00:00:00Z)")
            }
        case "bytes-hex":
            guard let bytes = Hex.decode(text) else { throw error(.invalidValue, path, "\"\(text)\" is not hex (pairs of 0-9, a-f)") }
            return .byteString(bytes)
        case "bytes-base64":
            guard let data = Data(base64Encoded: text) else {
                throw error(.invalidValue, path, "not base64 (RFC 4648 section 4, with padding)")
            }
            return .byteString(Array(data))
        default:
            guard !text.isEmpty else { throw error(.invalidValue, path, "the file name is empty") }
            let file = text.hasPrefix("/") ? text : baseDirectory + "/" + text
            return .byteString(try IssuerData.readFile(file, source: source, location: path))
        }
    }
}
