import MdocNFC
import Testing

@Suite("Command and response APDUs (ISO/IEC 7816-4 5.1)")
struct APDUTests {
    @Test("the four cases in the short form encode and parse back")
    func shortForms() throws {
        let cases: [(CommandAPDU, String)] = [
            (CommandAPDU(ins: 0xA4, p1: 0x04, p2: 0x00), "00A40400"),
            (CommandAPDU(ins: 0xB0, p1: 0x00, p2: 0x02, expectedLength: 0xFE), "00B00002FE"),
            (CommandAPDU(ins: 0xB0, p1: 0, p2: 0, expectedLength: 256), "00B0000000"),
            (CommandAPDU(ins: 0xA4, p1: 0x00, p2: 0x0C, data: [0xE1, 0x03]), "00A4000C02E103"),
            (CommandAPDU.select(application: hex("D2760000850101"), expectedLength: 256), "00A4040007D276000085010100"),
        ]
        for (command, expected) in cases {
            #expect(command.bytes == hex(expected))
            #expect(!command.isExtended)
            #expect(try CommandAPDU(bytes: hex(expected)) == command)
        }
    }

    @Test("the extended form: Le alone, Lc alone, both, 65536 as 0000")
    func extendedForms() throws {
        let cases: [(CommandAPDU, String)] = [
            (CommandAPDU(ins: 0xC0, p1: 0, p2: 0, expectedLength: 0xFEF8), "00C0000000FEF8"),
            (CommandAPDU(ins: 0xC0, p1: 0, p2: 0, expectedLength: 65536), "00C00000000000"),
            (CommandAPDU(ins: 0xC3, p1: 0, p2: 0, data: [0x53, 0x00], expectedLength: 257), "00C3000000000253000101"),
        ]
        for (command, expected) in cases {
            #expect(command.bytes == hex(expected))
            #expect(command.isExtended)
            #expect(try CommandAPDU(bytes: hex(expected)) == command)
        }
        let long = CommandAPDU(cla: 0x10, ins: 0xC3, p1: 0, p2: 0, data: [UInt8](repeating: 7, count: 300))
        #expect(long.bytes.prefix(7) == [0x10, 0xC3, 0, 0, 0x00, 0x01, 0x2C])
        #expect(long.bytes.count == 7 + 300)
        #expect(try CommandAPDU(bytes: long.bytes) == long)
    }

    @Test("the limits of each form, on both sides")
    func limits() throws {
        #expect(CommandAPDU.maximumShortDataLength == 255)
        #expect(CommandAPDU.maximumShortExpectedLength == 256)
        #expect(CommandAPDU.maximumExtendedDataLength == 65535)
        #expect(CommandAPDU.maximumExtendedExpectedLength == 65536)
        let shortData = CommandAPDU(ins: 0xD6, p1: 0, p2: 0, data: [UInt8](repeating: 1, count: 255))
        let extendedData = CommandAPDU(ins: 0xD6, p1: 0, p2: 0, data: [UInt8](repeating: 1, count: 256))
        #expect(!shortData.isExtended && shortData.bytes.count == 5 + 255)
        #expect(extendedData.isExtended && extendedData.bytes.count == 7 + 256)
        #expect(!CommandAPDU(ins: 0xB0, p1: 0, p2: 0, expectedLength: 256).isExtended)
        #expect(CommandAPDU(ins: 0xB0, p1: 0, p2: 0, expectedLength: 257).isExtended)
        let largest = CommandAPDU(ins: 0xC3, p1: 0, p2: 0, data: [UInt8](repeating: 2, count: 65535), expectedLength: 65536)
        #expect(largest.bytes.count == 4 + 3 + 65535 + 2)
        #expect(try CommandAPDU(bytes: largest.bytes) == largest)
    }

    @Test("hostile command bytes fail with the offset where they stop making sense", arguments: [
        ("00A404", NFCError.Code.truncated, 3),
        ("00A4040007D2760000", .truncated, 4),
        ("00A4040002E103000000", .trailingBytes, 8),
        ("00C3000000", nil, nil),
        ("00C300000000", .truncated, 4),
        ("00C30000000000", nil, nil),
        ("00C3000000000053", .malformed, 5),
        ("00C300000000025300", nil, nil),
        ("00C30000000002530000", .malformed, 9),
        ("00C3000000000353", .truncated, 5),
    ] as [(String, NFCError.Code?, Int?)])
    func hostileCommands(_ text: String, _ code: NFCError.Code?, _ offset: Int?) {
        do {
            _ = try CommandAPDU(bytes: hex(text))
            #expect(code == nil, "\(text) parsed")
        } catch {
            #expect(error.code == code, "\(text): \(error)")
            #expect(error.offset == offset, "\(text): \(error)")
        }
    }

    @Test("an extended Lc of 0 is refused: it would read as Le")
    func extendedLcZero() {
        #expect(errorCode { try CommandAPDU(bytes: hex("00C300000000000000")) } == .malformed)
    }

    @Test("responses: the status word at the end, data before it; fewer than 2 bytes fail")
    func responses() throws {
        let response = try ResponseAPDU(bytes: hex("0102039000"))
        #expect(response.data == [1, 2, 3])
        #expect(response.statusWord == .success)
        #expect(response.bytes == hex("0102039000"))
        #expect(try ResponseAPDU(bytes: hex("6A82")).statusWord == .fileOrApplicationNotFound)
        #expect(errorCode { try ResponseAPDU(bytes: [0x90]) } == .truncated)
        #expect(errorCode { try ResponseAPDU(bytes: []) } == .truncated)
    }

    @Test("status words: named values, 61XX and their text")
    func statusWords() {
        #expect(StatusWord.success.rawValue == 0x9000)
        #expect(StatusWord.moreDataAvailable.rawValue == 0x6100)
        #expect(StatusWord.bytesAvailable(0x25) == StatusWord(rawValue: 0x6125))
        #expect(StatusWord(rawValue: 0x6125).isBytesAvailable)
        #expect(!StatusWord.success.isBytesAvailable)
        #expect(StatusWord.wrongLength.rawValue == 0x6700)
        #expect(StatusWord.instructionNotSupported.rawValue == 0x6D00)
        #expect(StatusWord.classNotSupported.rawValue == 0x6E00)
        #expect(StatusWord.commandNotAllowedNoCurrentEF.rawValue == 0x6986)
        #expect(StatusWord.incorrectParameters.rawValue == 0x6A86)
        #expect(StatusWord.wrongParameters.rawValue == 0x6B00)
        #expect(StatusWord(sw1: 0x6A, sw2: 0x82).description == "6A82")
        #expect(StatusWord(rawValue: 0x0001).description == "0001")
    }
}
