import MdocCBOR
import Testing

/// Diagnostic notation, RFC 8949 section 8.
struct DiagnosticTests {
    @Test func compactNotation() {
        let value: CBOR = ["a": 1, "b": [2, 3], 1: .byteString([1, 2]), -5: .tagged(0, "2013-03-21T20:04:00Z")]
        #expect(value.diagnosticNotation() == "{\"a\": 1, \"b\": [2, 3], 1: h'0102', -5: 0(\"2013-03-21T20:04:00Z\")}")
        #expect(CBOR.tagged(1004, "2019-10-20").diagnosticNotation() == "1004(\"2019-10-20\")")
        #expect(CBOR.array([.float(1.5), .float(-0.0), .float(.infinity), .float(.nan), .simple(16), .undefined, nil, true])
            .diagnosticNotation() == "[1.5, -0.0, Infinity, NaN, simple(16), undefined, null, true]")
    }

    @Test func textIsEscapedAsJSON() {
        let value = CBOR.textString("a\"b\\c\n\t\r\u{08}\u{0C}\u{01}\u{1F}é")
        #expect(value.diagnosticNotation() == "\"a\\\"b\\\\c\\n\\t\\r\\b\\f\\u0001\\u001fé\"")
    }

    @Test func embeddedItemsExpandOnRequest() {
        let inner: CBOR = ["a": 1]
        let embedded = CBOR.encodedCBOR(inner.encoded())
        #expect(embedded.diagnosticNotation() == "24(h'a1616101')")
        #expect(embedded.diagnosticNotation(expandEmbedded: true) == "24(<< {\"a\": 1} >>)")
        let nested = CBOR.array([.encodedCBOR(embedded.encoded())])
        #expect(nested.diagnosticNotation(expandEmbedded: true) == "[24(<< 24(<< {\"a\": 1} >>) >>)]")
        // Content that is not one data item stays bytes.
        #expect(CBOR.encodedCBOR([0xff]).diagnosticNotation(expandEmbedded: true) == "24(h'ff')")
        #expect(CBOR.encodedCBOR([0x01, 0x02]).diagnosticNotation(expandEmbedded: true) == "24(h'0102')")
        // Tag 24 on something other than a byte string prints as it is.
        #expect(CBOR.tagged(24, 5).diagnosticNotation(expandEmbedded: true) == "24(5)")
    }

    @Test func embeddingChainsStopExpanding() {
        var value: CBOR = 0
        for _ in 0..<40 { value = .encodedCBOR(value.encoded()) }
        let text = value.diagnosticNotation(expandEmbedded: true)
        #expect(text.split(separator: "<<", omittingEmptySubsequences: false).count - 1 == 16)
        #expect(text.contains("24(h'"))
    }

    @Test func indentedNotation() {
        let value: CBOR = ["a": 1, "b": [2, [:], []], "c": .encodedCBOR([0x82, 0x01, 0x02])]
        let expected = """
            {
              "a": 1,
              "b": [
                2,
                {},
                []
              ],
              "c": 24(<< [
                1,
                2
              ] >>)
            }
            """
        #expect(value.diagnosticNotation(expandEmbedded: true, indent: true) == expected)
    }

    @Test func longByteStringsAbbreviateOnlyOnRequest() {
        let value = CBOR.byteString([UInt8](repeating: 0xab, count: 100))
        #expect(value.diagnosticNotation() == "h'" + String(repeating: "ab", count: 100) + "'")
        #expect(value.diagnosticNotation(byteStringPrefixLength: 4) == "h'abababab...' / 100 bytes /")
        #expect(value.diagnosticNotation(byteStringPrefixLength: 100) == value.diagnosticNotation())
    }

    @Test func integersAtTheEdges() {
        #expect(CBOR.unsignedInt(.max).diagnosticNotation() == "18446744073709551615")
        #expect(CBOR.negativeInt(.max).diagnosticNotation() == "-18446744073709551616")
        #expect(CBOR.negativeInt(.max - 1).diagnosticNotation() == "-18446744073709551615")
        #expect(CBOR.negativeInt(0).diagnosticNotation() == "-1")
    }
}
