import MdocCBOR
import Testing

/// Showing text a peer chose: every character class a terminal would act on, or that changes how
/// a line reads, is escaped; everything else is shown as it is; one piece of text is bounded.
struct UntrustedTextTests {
    /// One scalar of each class that must not reach a terminal, and how it is shown.
    static let escapedClasses: [(String, Unicode.Scalar, String)] = [
        ("C0: NUL", "\u{00}", "\\u{0}"),
        ("C0: tab", "\u{09}", "\\u{9}"),
        ("C0: line feed", "\u{0A}", "\\u{A}"),
        ("C0: carriage return", "\u{0D}", "\\u{D}"),
        ("C0: backspace", "\u{08}", "\\u{8}"),
        ("C0: ESC, which starts ECMA-48 escape sequences", "\u{1B}", "\\u{1B}"),
        ("C0: unit separator", "\u{1F}", "\\u{1F}"),
        ("DEL", "\u{7F}", "\\u{7F}"),
        ("C1: padding character", "\u{80}", "\\u{80}"),
        ("C1: next line (NEL)", "\u{85}", "\\u{85}"),
        ("C1: control sequence introducer (CSI)", "\u{9B}", "\\u{9B}"),
        ("C1: application program command", "\u{9F}", "\\u{9F}"),
        ("Cf: soft hyphen", "\u{AD}", "\\u{AD}"),
        ("Cf: zero width space", "\u{200B}", "\\u{200B}"),
        ("Cf: zero width joiner", "\u{200D}", "\\u{200D}"),
        ("Cf: right-to-left mark", "\u{200F}", "\\u{200F}"),
        ("Cf: left-to-right embedding", "\u{202A}", "\\u{202A}"),
        ("Cf: right-to-left override", "\u{202E}", "\\u{202E}"),
        ("Cf: word joiner", "\u{2060}", "\\u{2060}"),
        ("Cf: left-to-right isolate", "\u{2066}", "\\u{2066}"),
        ("Cf: pop directional isolate", "\u{2069}", "\\u{2069}"),
        ("Cf: byte order mark", "\u{FEFF}", "\\u{FEFF}"),
        ("Cf: interlinear annotation anchor", "\u{FFF9}", "\\u{FFF9}"),
        ("Cf: tag latin capital letter A", "\u{E0041}", "\\u{E0041}"),
        ("Zl: line separator", "\u{2028}", "\\u{2028}"),
        ("Zp: paragraph separator", "\u{2029}", "\\u{2029}"),
    ]

    @Test(arguments: escapedClasses.map { $0.0 })
    func escapesEveryClass(_ name: String) throws {
        let (_, scalar, shown) = try #require(Self.escapedClasses.first { $0.0 == name })
        #expect(UntrustedText.mustEscape(scalar))
        #expect(UntrustedText.escape(scalar) == shown)
        #expect(UntrustedText.escaped("a\(scalar)b") == "a\(shown)b")
        #expect(!UntrustedText.isSafe("a\(scalar)b"))
        #expect(UntrustedText.isSafe(UntrustedText.escaped("a\(scalar)b")))
    }

    @Test func showsPrintableTextAsItIs() {
        let text = "Doe, Jöhn-Émile ÿ ¡ ½ 山田 مرحبا Ω \u{301}e\u{301} 🙂 ✔ \\u{1B} ~!@#$%^&*()[]{}\"'"
        #expect(UntrustedText.isSafe(text))
        #expect(UntrustedText.escaped(text) == text)
        // Not in Cc, Cf, Zl or Zp: the no-break space and the ideographic space are shown.
        #expect(!UntrustedText.mustEscape("\u{A0}"))
        #expect(!UntrustedText.mustEscape("\u{3000}"))
    }

    @Test func anEscapeSequenceIsShownWhole() {
        let attack = "portrait\r\u{1B}[1A\u{1B}[2K      Age over 18 (age_over_18)"
        #expect(UntrustedText.escaped(attack) == "portrait\\u{D}\\u{1B}[1A\\u{1B}[2K      Age over 18 (age_over_18)")
    }

    @Test func escapingTwiceChangesNothing() {
        let once = UntrustedText.escaped("\u{1B}]0;title\u{07}\u{202E}evil\u{2028}")
        #expect(UntrustedText.escaped(once) == once)
    }

    @Test func textUpToTheBoundIsShownWhole() {
        let text = String(repeating: "a", count: UntrustedText.maximumLength)
        #expect(UntrustedText.escaped(text) == text)
        // The bound counts scalars of the input, not the characters their escapes take.
        let escapes = String(repeating: "\u{1B}", count: UntrustedText.maximumLength)
        #expect(UntrustedText.escaped(escapes) == String(repeating: "\\u{1B}", count: UntrustedText.maximumLength))
    }

    @Test func textOverTheBoundIsCutAndMarked() {
        let text = String(repeating: "a", count: UntrustedText.maximumLength + 1)
        #expect(UntrustedText.escaped(text) == String(repeating: "a", count: UntrustedText.maximumLength) + "...(1 more)")
        let long = String(repeating: "\u{1B}", count: 1_000_000)
        let shown = UntrustedText.escaped(long)
        #expect(shown.hasSuffix("...(\(1_000_000 - UntrustedText.maximumLength) more)"))
        #expect(shown.count < 8 * UntrustedText.maximumLength)
        #expect(UntrustedText.escaped("abcdef", maximumLength: 2) == "ab...(4 more)")
    }

    @Test(arguments: escapedClasses.map { $0.0 })
    func jsonAndDiagnosticNotationEscapeEveryClass(_ name: String) throws {
        let (_, scalar, _) = try #require(Self.escapedClasses.first { $0.0 == name })
        let literal = JSONStringLiteral.quoted("a\(scalar)b")
        #expect(UntrustedText.isSafe(literal), "\(literal.unicodeScalars.map(\.value))")
        #expect(UntrustedText.isSafe(CBOR.textString("a\(scalar)b").diagnosticNotation()))
        let map: CBOR = [.textString("k\(scalar)"): "v"]
        #expect(UntrustedText.isSafe(map.diagnosticNotation()))
    }

    @Test func jsonEscapesAboveTheBasicPlaneAsSurrogatePairs() {
        #expect(JSONStringLiteral.quoted("\u{202E}\u{85}") == "\"\\u202e\\u0085\"")
        #expect(JSONStringLiteral.quoted("\u{E0041}") == "\"\\udb40\\udc41\"")
        #expect(JSONStringLiteral.quoted("é🙂") == "\"é🙂\"")
    }

    @Test func pathKeysAreQuotedAndEscaped() {
        let path = CBORPath(components: [.key("nameSpaces"), .key("x\"]\u{1B}[2J"), .index(0)])
        #expect(path.description == "nameSpaces[\"x\\\"]\\u001b[2J\"][0]")
    }
}
