import MdocCBOR
import MdocTestSupport
import Testing

/// Diagnostic notation read back into bytes (RFC 8949 section 8, RFC 8610 appendix G): what
/// `mdoc inspect` prints reads back into each Annex D message byte for byte, the encoding
/// indicators write the heads and floats they name, and bad text fails with its line and column.
struct DiagnosticParserTests {
    static let annexDMessages = [
        "device_engagement", "device_request", "device_response", "session_establishment", "session_data_response",
        "session_termination", "session_transcript_bytes", "issuer_auth", "issuer_signed", "device_signed",
        "mobile_security_object_bytes", "reader_authentication_bytes", "device_authentication_bytes", "items_request_bytes",
        "device_auth_mac_structure", "driving_privileges", "device_auth", "device_engagement_nfc",
    ]

    /// The error reading `text` throws, or `nil` when it reads.
    func failure(_ text: String) -> CBORTextError? {
        do {
            _ = try CBORDiagnosticParser.encode(text)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: annexDMessages)
    func whatInspectPrintsReadsBackToTheSameBytes(_ name: String) throws {
        let bytes = Vectors.annexD(name)
        let item = try CBOR.decode(bytes)
        // As `mdoc inspect --diagnostic` prints it: a comment line, then the item over several
        // lines with embedded CBOR inside <<...>>.
        let text = "/ CBOR data item, \(bytes.count) bytes, from hex input /\n" + item.diagnosticNotation(expandEmbedded: true, indent: true)
        #expect(try CBORDiagnosticParser.encode(text) == bytes)
        #expect(try CBORDiagnosticParser.encode(item.diagnosticNotation()) == bytes)
    }

    /// RFC 8949 appendix A: the notation of each example, with the encoding indicators of
    /// section 8.1 where the example is not in preferred serialization.
    @Test(arguments: [
        ("0", "00"), ("23", "17"), ("24", "1818"), ("1000000000000", "1b000000e8d4a51000"),
        ("18446744073709551615", "1bffffffffffffffff"), ("-18446744073709551616", "3bffffffffffffffff"),
        ("-1", "20"), ("-1000", "3903e7"), ("2(h'010000000000000000')", "c249010000000000000000"),
        ("0.0", "f90000"), ("-0.0", "f98000"), ("1.0", "f93c00"), ("1.1", "fb3ff199999999999a"), ("1.5", "f93e00"),
        ("65504.0", "f97bff"), ("100000.0", "fa47c35000"), ("3.4028234663852886e+38", "fa7f7fffff"),
        ("1.0e+300", "fb7e37e43c8800759c"), ("5.960464477539063e-8", "f90001"), ("-4.0", "f9c400"),
        ("Infinity", "f97c00"), ("NaN", "f97e00"), ("-Infinity", "f9fc00"),
        ("Infinity_2", "fa7f800000"), ("-Infinity_3", "fbfff0000000000000"), ("NaN_2", "fa7fc00000"),
        ("false", "f4"), ("true", "f5"), ("null", "f6"), ("undefined", "f7"), ("simple(16)", "f0"), ("simple(255)", "f8ff"),
        ("0(\"2013-03-21T20:04:00Z\")", "c074323031332d30332d32315432303a30343a30305a"), ("1(1363896240)", "c11a514b67b0"),
        ("23(h'01020304')", "d74401020304"), ("24(h'6449455446')", "d818456449455446"),
        ("h''", "40"), ("h'01020304'", "4401020304"), ("\"\"", "60"), ("\"\\u00fc\"", "62c3bc"), ("\"\\ud800\\udd51\"", "64f0908591"),
        ("[]", "80"), ("[1, [2, 3], [4, 5]]", "8301820203820405"), ("{}", "a0"), ("{1: 2, 3: 4}", "a201020304"),
        ("{\"a\": 1, \"b\": [2, 3]}", "a26161016162820203"),
        ("(_ h'0102', h'030405')", "5f42010243030405ff"), ("(_ \"strea\", \"ming\")", "7f657374726561646d696e67ff"),
        ("[_ ]", "9fff"), ("[_ 1, [2, 3], [_ 4, 5]]", "9f018202039f0405ffff"), ("[1, [2, 3], [_ 4, 5]]", "83018202039f0405ff"),
        ("{_ \"a\": 1, \"b\": [_ 2, 3]}", "bf61610161629f0203ffff"), ("[\"a\", {_ \"b\": \"c\"}]", "826161bf61626163ff"),
    ])
    func appendixAExamplesReadIntoTheirBytes(_ text: String, _ hex: String) throws {
        #expect(Hex.encode(try CBORDiagnosticParser.encode(text)) == hex)
    }

    @Test(arguments: [
        ("1_0", "1801"), ("1_1", "190001"), ("1_2", "1a00000001"), ("0_3", "1b0000000000000000"), ("-1_0", "3800"),
        ("\"a\"_1", "79000161"), ("h'01'_0", "580101"), ("24_0(1)", "d81801"), ("[_0 1]", "980101"), ("{_1 1: 2}", "b900010102"),
        ("1.5_2", "fa3fc00000"), ("1.5_3", "fb3ff8000000000000"), ("1.0_1", "f93c00"),
        ("0x10", "10"), ("-0x10", "2f"), ("0b101", "05"), ("0o17", "0f"),
        ("'abc'", "43616263"), ("b64'AQID'", "43010203"), ("b64'-_8'", "42fbff"), ("b64'+/8='", "42fbff"),
        ("<<1, 2>>", "420102"), ("<< >>", "40"), ("24(<<{1: h'ff'}>>)", "d81844a10141ff"),
        ("{1: 1, 1: 2}", "a201010102"), ("[1, # a comment\n 2]", "820102"), ("h'01 / one / 02'", "420102"),
    ])
    func encodingIndicatorsAndExtensionsWriteWhatTheyName(_ text: String, _ hex: String) throws {
        #expect(Hex.encode(try CBORDiagnosticParser.encode(text)) == hex)
    }

    @Test func aCraftedMapWithADuplicateKeyIsWrittenAsGivenAndTheDecoderRefusesIt() throws {
        let bytes = try CBORDiagnosticParser.encode("{\"a\": 1, \"a\": 2}")
        #expect(decodingError(bytes)?.code == .duplicateMapKey)
    }

    @Test(arguments: [
        ("[1,\n  2,\n  @]", CBORTextError.Code.syntax, 3, 3),
        ("{\"a\" 1}", .syntax, 1, 6),
        ("\"abc", .syntax, 1, 1),
        ("h'012'", .outOfRange, 1, 1),
        ("18446744073709551616", .outOfRange, 1, 1),
        ("-18446744073709551617", .outOfRange, 1, 1),
        ("[1, 256_0]", .outOfRange, 1, 5),
        ("1_4", .outOfRange, 1, 2),
        ("1.1_1", .outOfRange, 1, 1),
        ("simple(24)", .outOfRange, 1, 8),
        ("simple(256)", .outOfRange, 1, 8),
        ("{\n \"photo\": h'ffd8...' / 1500 bytes /\n}", .syntax, 2, 17),
        ("(_ h'01', \"a\")", .syntax, 1, 11),
        ("(_ 1)", .syntax, 1, 4),
        ("/ unterminated", .syntax, 1, 1),
        ("1 2", .syntax, 1, 3),
        ("", .syntax, 1, 1),
        ("\"\\ud800\"", .syntax, 1, 8),
        ("\"\u{1}\"", .syntax, 1, 2),
        ("[\"é\", @]", .syntax, 1, 7),
    ])
    func badTextFailsNamingLineAndColumn(_ text: String, _ code: CBORTextError.Code, _ line: Int, _ column: Int) throws {
        let error = try #require(failure(text))
        #expect(error.code == code)
        #expect(error.position == CBORTextErrorDomain.Position(line: line, column: column))
        #expect("\(error)".hasPrefix("line \(line), column \(column): "))
    }

    @Test func nestingIsBoundedAtTheMaximumDepth() throws {
        let depth = CBORDiagnosticParser.maximumDepth
        let deepest = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(try CBORDiagnosticParser.encode(deepest) == [UInt8](repeating: 0x81, count: depth - 1) + [0x80])
        let tooDeep = String(repeating: "[", count: depth + 1) + String(repeating: "]", count: depth + 1)
        #expect(failure(tooDeep)?.code == .depthLimitExceeded)
        let tags = String(repeating: "1(", count: depth) + "0" + String(repeating: ")", count: depth)
        #expect(try CBORDiagnosticParser.encode(tags) == [UInt8](repeating: 0xC1, count: depth) + [0x00])
        #expect(failure("1(" + tags + ")")?.code == .depthLimitExceeded)
    }

    @Test func inputSizeIsBoundedAtTheMaximum() throws {
        let size = CBORDiagnosticParser.maximumInputSize
        var text = [UInt8](repeating: 0x20, count: size)
        text[0] = UInt8(ascii: "7")
        #expect(try CBORDiagnosticParser.encode(text) == [0x07])
        text.append(0x20)
        do {
            _ = try CBORDiagnosticParser.encode(text)
            Issue.record("a text above the maximum size was read")
        } catch {
            #expect(error.code == .inputTooLarge)
        }
    }
}
