import MdocCBOR
import MdocIssuerData
import MdocModel
import MdocTestSupport
import MdocText
import Testing

import Foundation

@Suite("Issuer data JSON (docs/issuer-data-format.md)")
struct IssuerDataTests {
    static let mDL = "org.iso.18013.5.1"

    /// Issuer data from `json`, with `bytes-file` paths relative to `directory`.
    static func read(_ json: String, directory: String = "/nonexistent") throws(IssuerDataError) -> IssuerData {
        try IssuerData(json: Array(json.utf8), source: "data.json", baseDirectory: directory)
    }

    /// The value of the one element of `{"nameSpaces": {"ns": {"x": value}}}`.
    static func element(_ valueJSON: String, directory: String = "/nonexistent") throws -> CBOR {
        let data = try read(#"{"nameSpaces": {"ns": {"x": \#(valueJSON)}}}"#, directory: directory)
        return try #require(data.nameSpaces.first?.1.first?.value)
    }

    /// The error reading `json`.
    static func failure(_ json: String) -> IssuerDataError? {
        do {
            _ = try read(json)
            return nil
        } catch {
            return error
        }
    }

    // MARK: The samples

    @Test func mdlSampleReadsInFileOrder() throws {
        let data = try IssuerData.load(Vectors.repositoryRoot + "/Samples/mdl.json")
        #expect(data.nameSpaces.map(\.0) == [Self.mDL])
        let elements = try #require(data.nameSpaces.first?.1)
        #expect(elements.prefix(3).map(\.identifier) == ["family_name", "given_name", "birth_date"])
        let values = Dictionary(elements.map { ($0.identifier, $0.value) }, uniquingKeysWith: { first, _ in first })
        #expect(values["family_name"] == .textString("Doe"))
        #expect(values["birth_date"] == .tagged(1004, .textString("1990-01-01")))
        #expect(values["portrait_capture_date"] == .tagged(0, .textString("2023-12-15T09:30:00Z")))
        #expect(values["age_over_18"] == .boolean(true))
        #expect(values["sex"] == .unsignedInt(2))
        let portrait = try #require(FileManager.default.contents(atPath: Vectors.repositoryRoot + "/Samples/portrait.jpg"))
        #expect(values["portrait"] == .byteString(Array(portrait)))
        #expect(Array(portrait.prefix(3)) == [0xFF, 0xD8, 0xFF])
        guard case .array(let privileges)? = values["driving_privileges"], case .map(let first)? = privileges.first else {
            Issue.record("driving_privileges is not an array of maps")
            return
        }
        #expect(first[text: "vehicle_category_code"] == .textString("A"))
        #expect(first[text: "issue_date"] == .tagged(1004, .textString("2018-08-09")))
        // Every identifier is one the catalogue knows (or an age_over_NN).
        for element in elements {
            #expect(DataElementCatalogue.name(of: element.identifier, in: Self.mDL) != nil, "\(element.identifier)")
        }
    }

    @Test func pidSampleUsesCatalogueNames() throws {
        let data = try IssuerData.load(Vectors.repositoryRoot + "/Samples/pid.json")
        let (nameSpace, elements) = try #require(data.nameSpaces.first)
        #expect(nameSpace == "eu.europa.ec.eudi.pid.1")
        for element in elements {
            #expect(DataElementCatalogue.name(of: element.identifier, in: nameSpace) != nil, "\(element.identifier)")
        }
        #expect(elements.contains { $0.identifier == "issuance_date" && $0.value == .tagged(1004, .textString("2024-01-01")) })
    }

    // MARK: Values

    @Test func plainValues() throws {
        #expect(try Self.element(#""Doe""#) == .textString("Doe"))
        #expect(try Self.element("42") == .unsignedInt(42))
        #expect(try Self.element("-7") == .negativeInt(6))
        #expect(try Self.element("9223372036854775807") == .unsignedInt(UInt64(Int64.max)))
        #expect(try Self.element("1.5") == .float(1.5))
        #expect(try Self.element("2e3") == .float(2000))
        #expect(try Self.element("false") == .boolean(false))
        #expect(try Self.element("null") == .null)
        #expect(try Self.element("[]") == .array([]))
        #expect(try Self.element(#"{"b": 1, "a": [true]}"#) == .map(CBORMap([.init(key: "b", value: 1), .init(key: "a", value: .array([.boolean(true)]))])))
        #expect(try Self.element(#""\u00e9\ud83d\ude00\n\"\/""#) == .textString("é😀\n\"/"))
    }

    @Test func typedValues() throws {
        #expect(try Self.element(#"{"full-date": "2024-02-29"}"#) == .tagged(1004, .textString("2024-02-29")))
        #expect(try Self.element(#"{"tdate": "2024-01-01T12:00:00+01:00"}"#) == .tagged(0, .textString("2024-01-01T12:00:00+01:00")))
        #expect(try Self.element(#"{"bytes-hex": "00ff10"}"#) == .byteString([0x00, 0xFF, 0x10]))
        #expect(try Self.element(#"{"bytes-base64": "AP8Q"}"#) == .byteString([0x00, 0xFF, 0x10]))
        #expect(try Self.element(#"{"bytes-hex": ""}"#) == .byteString([]))
    }

    @Test func bytesFileIsRelativeToTheDataFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("issuer-data-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data([1, 2, 3]).write(to: directory.appendingPathComponent("blob.bin"))
        #expect(try Self.element(#"{"bytes-file": "blob.bin"}"#, directory: directory.path) == .byteString([1, 2, 3]))
        #expect(try Self.element(#"{"bytes-file": "\#(directory.path)/blob.bin"}"#) == .byteString([1, 2, 3]))
        let json = directory.appendingPathComponent("data.json")
        try Data(#"{"nameSpaces": {"ns": {"x": {"bytes-file": "blob.bin"}}}}"#.utf8).write(to: json)
        #expect(try IssuerData.load(json.path).nameSpaces.first?.1.first?.value == .byteString([1, 2, 3]))
    }

    // MARK: Errors name the JSON path

    @Test(arguments: [
        (#"{"nameSpaces": {"ns": {"x": {"full-date": "2023-02-29"}}}}"#, IssuerDataError.Code.invalidValue,
         #"$["nameSpaces"]["ns"]["x"]["full-date"]"#),
        (#"{"nameSpaces": {"ns": {"x": {"full-date": 20230101}}}}"#, .unexpectedType, #"$["nameSpaces"]["ns"]["x"]["full-date"]"#),
        (#"{"nameSpaces": {"ns": {"x": {"tdate": "2023-01-01"}}}}"#, .invalidValue, #"$["nameSpaces"]["ns"]["x"]["tdate"]"#),
        (#"{"nameSpaces": {"ns": {"x": {"bytes-hex": "0g"}}}}"#, .invalidValue, #"$["nameSpaces"]["ns"]["x"]["bytes-hex"]"#),
        (#"{"nameSpaces": {"ns": {"x": {"bytes-base64": "A*=="}}}}"#, .invalidValue, #"$["nameSpaces"]["ns"]["x"]["bytes-base64"]"#),
        (#"{"nameSpaces": {"ns": {"x": {"bytes-file": "missing.jpg"}}}}"#, .unreadable, #"$["nameSpaces"]["ns"]["x"]["bytes-file"]"#),
        (#"{"nameSpaces": {"ns": {"x": {"bytes-file": ""}}}}"#, .invalidValue, #"$["nameSpaces"]["ns"]["x"]["bytes-file"]"#),
        (#"{"nameSpaces": {"ns": {"x": {"full-date": "2023-01-01", "note": 1}}}}"#, .unexpectedKey, #"$["nameSpaces"]["ns"]["x"]"#),
        (#"{"nameSpaces": {"ns": {"x": [1, {"a": {"tdate": 5}}]}}}"#, .unexpectedType, #"$["nameSpaces"]["ns"]["x"][1]["a"]["tdate"]"#),
        (#"{"nameSpaces": {"ns": {"x": 1, "": 2}}}"#, .invalidValue, #"$["nameSpaces"]["ns"][""]"#),
        (#"{"nameSpaces": {"ns": {}}}"#, .invalidValue, #"$["nameSpaces"]["ns"]"#),
        (#"{"nameSpaces": {"ns": [1]}}"#, .unexpectedType, #"$["nameSpaces"]["ns"]"#),
        (#"{"nameSpaces": {"": {"x": 1}}}"#, .invalidValue, #"$["nameSpaces"][""]"#),
        (#"{"nameSpaces": {}}"#, .invalidValue, #"$["nameSpaces"]"#),
        (#"{"nameSpaces": []}"#, .unexpectedType, #"$["nameSpaces"]"#),
        (#"{"namespaces": {}}"#, .unexpectedKey, "$"),
        (#"{"nameSpaces": {"ns": {"x": 1}}, "docType": "x"}"#, .unexpectedKey, "$"),
        (#"["nameSpaces"]"#, .unexpectedType, "$"),
    ])
    func errorsNameTheJSONPath(json: String, code: IssuerDataError.Code, location: String) {
        let error = Self.failure(json)
        #expect(error?.code == code)
        #expect(error?.location == location)
        #expect(error?.description.hasPrefix("data.json: \(location): ") == true)
    }

    @Test(arguments: [
        ("{\"nameSpaces\": {\"ns\": {\"x\": 1,\n  \"x\": 2}}}", IssuerDataError.Code.duplicateKey, "line 2, column 3"),
        ("{\"nameSpaces\": {\"ns\": {\"x\": 1,}}}", .malformedJSON, "line 1, column 31"),
        ("{\"nameSpaces\": 1} x", .malformedJSON, "line 1, column 19"),
        ("{\"nameSpaces\": {\"ns\": {\"x\": 01}}}", .malformedJSON, "line 1, column 29"),
        ("{\"nameSpaces\": {\"ns\": {\"x\": \"a\tb\"}}}", .malformedJSON, "line 1, column 31"),
        ("{\"nameSpaces\": {\"ns\": {\"x\": \"\\ud800\"}}}", .malformedJSON, "line 1, column 36"),
        ("{\"nameSpaces\": {\"ns\": {\"x\": 9223372036854775808}}}", .invalidValue, "line 1, column 29"),
        ("{\"nameSpaces\": {\"ns\": {\"x\": tru}}}", .malformedJSON, "line 1, column 29"),
        ("", .malformedJSON, "line 1, column 1"),
        ("{\"é\": \"\u{7}\"}", .malformedJSON, "line 1, column 8"),
    ])
    func malformedJSONNamesLineAndColumn(json: String, code: IssuerDataError.Code, location: String) {
        let error = Self.failure(json)
        #expect(error?.code == code)
        #expect(error?.location == location, "\(error.map { "\($0)" } ?? "no error")")
    }

    @Test func invalidUTF8IsRejected() {
        let bytes: [UInt8] = Array(#"{"nameSpaces": {"ns": {"x": ""#.utf8) + [0xC3, 0x28] + Array(#""}}}"#.utf8)
        #expect(throws: IssuerDataError(.malformedJSON, source: "", location: "", "")) {
            try IssuerData(json: bytes, source: "data.json", baseDirectory: ".")
        }
    }

    @Test func depthLimit() throws {
        // The document is levels 1 (root) to 3 (the name space); the element value adds the rest.
        let limit = IssuerData.maximumDepth
        func nested(_ levels: Int) -> String {
            String(repeating: "[", count: levels) + String(repeating: "]", count: levels)
        }
        _ = try Self.element(nested(limit - 3))
        #expect(Self.failure(#"{"nameSpaces": {"ns": {"x": \#(nested(limit - 2))}}}"#)?.code == .depthLimitExceeded)
    }

    @Test func missingDataFileIsUnreadable() {
        let error = #expect(throws: IssuerDataError(.unreadable, source: "", location: "", "")) {
            try IssuerData.load("/nonexistent/data.json")
        }
        #expect(error?.description == "/nonexistent/data.json: cannot open: No such file or directory")
    }

    @Test func missingBytesFileNamesTheFileAndThePath() {
        let error = Self.failure(#"{"nameSpaces": {"ns": {"x": {"bytes-file": "missing.jpg"}}}}"#)
        #expect(error?.description == #"data.json: $["nameSpaces"]["ns"]["x"]["bytes-file"]: /nonexistent/missing.jpg: cannot open: No such file or directory"#)
    }
}
