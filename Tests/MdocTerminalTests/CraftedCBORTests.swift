import MdocCBOR
import MdocFiles
import MdocInspection
import Testing

/// How `mdoc encode` and `mdoc-reader request --request` read an item a person wrote
/// (docs/crafted-sessions.md): the form the input is in, or the one named.
@Suite struct CraftedCBORTests {
    @Test(arguments: [
        ([0xA1, 0x01, 0x02], CraftedCBOR.Form.binary, "a10102"),
        ([0x01], .binary, "01"),
        (Array("a1 01\n02\n".utf8), .hex, "a10102"),
        (Array("1234".utf8), .hex, "1234"),
        (Array("820102".utf8), .hex, "820102"),
        (Array("123".utf8), .json, "187b"),
        (Array(#"{"1": 2}"#.utf8), .json, "a10102"),
        (Array(#"{"$bytes": "AQ"}"#.utf8), .json, "4101"),
        (Array("{1: 2} / a comment /".utf8), .diagnostic, "a10102"),
        (Array("\"é\"".utf8), .json, "62c3a9"),
        (Array("'é'".utf8), .diagnostic, "42c3a9"),
        (Array("oQEC".utf8), .base64url, "a10102"),
    ] as [([UInt8], CraftedCBOR.Form, String)])
    func theInputDecidesItsForm(_ raw: [UInt8], _ form: CraftedCBOR.Form, _ hex: String) throws {
        let item = try CraftedCBOR(raw, name: "f")
        #expect(item.form == form)
        #expect(Hex.encode(item.bytes) == hex)
    }

    @Test func aNamedFormIsTheOneRead() throws {
        #expect(Hex.encode(try CraftedCBOR(Array(#"{"1": 2}"#.utf8), name: "f", form: .diagnostic).bytes) == "a1613102")
        #expect(Hex.encode(try CraftedCBOR(Array("12".utf8), name: "f", form: .diagnostic).bytes) == "0c")
        #expect(Hex.encode(try CraftedCBOR(Array("12".utf8), name: "f", form: .binary).bytes) == "3132")
    }

    @Test(arguments: [
        (Array("[1, @]".utf8), nil, InputError.Code.badEncoding, "f: line 1, column 5: unexpected character, expected a data item"),
        (Array("[1, @]".utf8), CraftedCBOR.Form.json, .badEncoding, "f: line 1, column 5: unexpected character, expected a value"),
        (Array("zz".utf8), .hex, .badEncoding, "f: the input is not hex text"),
        (Array(" \n\t".utf8), nil, .empty, "f: the input holds no data item"),
    ] as [([UInt8], CraftedCBOR.Form?, InputError.Code, String)])
    func inputOfNoFormIsRefusedNamingWhere(_ raw: [UInt8], _ form: CraftedCBOR.Form?, _ code: InputError.Code, _ message: String) throws {
        do {
            _ = try CraftedCBOR(raw, name: "f", form: form)
            Issue.record("\(raw) was read")
        } catch {
            #expect(error.code == code)
            #expect("\(error)" == message)
        }
    }

    @Test func inputAboveTheProgramsLimitIsRefused() throws {
        let limit = InputSource.maximumInputSize
        var raw = [UInt8](repeating: 0x20, count: limit)
        raw[0] = UInt8(ascii: "7")
        #expect(try CraftedCBOR(raw, name: "f").bytes == [0x07])
        raw.append(0x20)
        #expect(throws: InputError(.tooLarge, source: "f", "")) { try CraftedCBOR(raw, name: "f") }
    }
}
