import Logging
import MdocBLE
import MdocCBOR
import MdocTerminal
import MdocText
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the programs write to a terminal: literals as written, everything interpolated escaped.
@Suite struct TerminalTextTests {
    static let attack = "\r\u{1B}[1A\u{1B}[2KVERIFIED\u{202E}"

    /// `true` when `text` holds no scalar a terminal acts on other than the line feeds of its
    /// layout.
    static func isSafe(_ text: TerminalText) -> Bool {
        text.description.split(separator: "\n", omittingEmptySubsequences: false).allSatisfy(UntrustedText.isSafe)
    }

    @Test func literalsAreWrittenAsTheyAre() {
        let text: TerminalText = "line\n\r\u{1B}[2K"
        #expect(text.description == "line\n\r\u{1B}[2K")
    }

    @Test func interpolatedValuesAreEscaped() {
        let name = Self.attack
        let text: TerminalText = "name: \(name), count \(3)\n"
        #expect(text.description == "name: \\u{D}\\u{1B}[1A\\u{1B}[2KVERIFIED\\u{202E}, count 3\n")
        struct Failure: Error, CustomStringConvertible {
            var description: String { "bad key \"\u{1B}[2J\"" }
        }
        let error: any Error = Failure()
        #expect(("error: \(error)" as TerminalText).description == "error: bad key \"\\u{1B}[2J\"")
    }

    @Test func safeTextIsNotEscapedTwice() {
        let inner: TerminalText = "a\(Self.attack)\n"
        let outer: TerminalText = "[\(inner)]"
        #expect(outer.description == "[\(inner.description)]")
        #expect(TerminalText(escaping: inner.description) == TerminalText(escaping: TerminalText(escaping: inner.description).description))
    }

    @Test func interpolatedValuesAreBounded() {
        let atBound = String(repeating: "x", count: UntrustedText.maximumLength)
        #expect(("\(atBound)" as TerminalText).description == atBound)
        let overBound = atBound + "y"
        #expect(("\(overBound)" as TerminalText).description == atBound + "...(1 more)")
    }

    @Test func linesKeepOnlyTheirLineFeeds() {
        let text = TerminalText(lines: "{\n  \"a\": 1\r\u{1B}[2J\n}")
        #expect(text.description == "{\n  \"a\": 1\\u{D}\\u{1B}[2J\n}")
        let long = String(repeating: "z", count: 10 * UntrustedText.maximumLength)
        #expect(TerminalText(lines: long).description == long)
    }

    @Test func paddingCountsTheShownCharacters() {
        #expect(TerminalText(escaping: "ab").padded(to: 5).description == "ab   ")
        #expect(TerminalText(escaping: "\u{1B}").padded(to: 5).description == "\\u{1B}")
        #expect(("a" as TerminalText) + "b" == "ab")
    }

    @Test func logLinesEscapeMessageAndMetadata() {
        let line = TerminalLogHandler.line(
            timestamp: "2026-01-01T00:00:00+0000", level: .debug, label: "mdoc.ble",
            metadata: ["name": .string("phone\u{1B}[2J"), "z\u{7}": "1", "hex": .string(String(repeating: "ab", count: 2_000))],
            source: "MdocBLE", message: "device \("\u{202E}evil")\n\u{1B}[1Afake line")
        #expect(line.description.hasPrefix(
            "2026-01-01T00:00:00+0000 debug mdoc.ble: hex=\(String(repeating: "ab", count: 2_000)) name=phone\\u{1B}[2J z\\u{7}=1 [MdocBLE] "))
        #expect(line.description.hasSuffix("device \\u{202E}evil\\u{A}\\u{1B}[1Afake line"))
        #expect(UntrustedText.isSafe(line.description))
    }

    @Test func scanReportEscapesDeviceNames() throws {
        let uuid = try #require(UUID(uuidString: "45EFEF74-2B2C-4837-A9A3-B0E1D05A6917"))
        let sighting = BLEPeripheralSighting(
            address: "00:11:22:33:44:55", rssi: -40, serviceUUIDs: [uuid], name: "Wallet\(Self.attack)", isConnectable: true)
        let text = ScanReport.text([sighting], all: false)
        #expect(Self.isSafe(text))
        #expect(text.description.contains("\"Wallet\\u{D}\\u{1B}[1A\\u{1B}[2KVERIFIED\\u{202E}\""))
        let json = ScanReport.json([sighting]).serialized(pretty: true)
        #expect(json.split(separator: "\n").allSatisfy(UntrustedText.isSafe))
    }
}
