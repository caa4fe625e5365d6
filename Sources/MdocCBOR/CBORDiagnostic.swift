extension CBOR {
    /// This item in diagnostic notation (RFC 8949 section 8), e.g. `{"a": 1, "b": [2, 3]}`,
    /// `h'0102'`, `0("2013-03-21T20:04:00Z")`, `1.5`, `-0.0`, `Infinity`, `simple(16)`.
    ///
    /// - Parameters:
    ///   - expandEmbedded: print a tag-24 byte string whose content decodes as one data item as
    ///     `24(<< item >>)` (RFC 8610 appendix G.3), recursively; content that does not decode
    ///     stays `24(h'...')`.
    ///   - indent: write containers over several lines with two spaces per level, for people
    ///     reading a message (`mdoc inspect`).
    ///   - byteStringPrefixLength: when set, byte strings longer than this print only their first
    ///     bytes, as `h'0102...' / 1500 bytes /`; by default every byte is printed.
    public func diagnosticNotation(expandEmbedded: Bool = false, indent: Bool = false, byteStringPrefixLength: Int? = nil) -> String {
        var writer = CBORDiagnosticWriter(
            expandEmbedded: expandEmbedded, indent: indent, byteStringPrefixLength: byteStringPrefixLength)
        writer.write(self, level: 0, embeddingDepth: 0)
        return writer.text
    }
}

/// Writes RFC 8949 section 8 diagnostic notation.
struct CBORDiagnosticWriter {
    /// How many embedded items inside each other are expanded. ISO/IEC 18013-5 nests at most
    /// three (DeviceAuthenticationBytes > SessionTranscript > DeviceEngagementBytes); the bound
    /// keeps a hostile chain of tag-24 items from recursing without end.
    static let maximumEmbeddingDepth = 16

    let expandEmbedded: Bool
    let indent: Bool
    let byteStringPrefixLength: Int?
    private(set) var text = ""

    init(expandEmbedded: Bool, indent: Bool, byteStringPrefixLength: Int?) {
        self.expandEmbedded = expandEmbedded
        self.indent = indent
        self.byteStringPrefixLength = byteStringPrefixLength
    }

    mutating func write(_ item: CBOR, level: Int, embeddingDepth: Int) {
        switch item {
        case .unsignedInt(let n):
            text += String(n)
        case .negativeInt(let n):
            let (magnitude, overflow) = n.addingReportingOverflow(1)
            text += overflow ? "-18446744073709551616" : "-" + String(magnitude)
        case .byteString(let bytes):
            writeBytes(bytes)
        case .textString(let string):
            writeText(string)
        case .array(let items):
            writeContainer(open: "[", close: "]", count: items.count, level: level) { writer, index in
                writer.write(items[index], level: level + 1, embeddingDepth: embeddingDepth)
            }
        case .map(let map):
            writeContainer(open: "{", close: "}", count: map.count, level: level) { writer, index in
                writer.write(map.entries[index].key, level: level + 1, embeddingDepth: embeddingDepth)
                writer.text += ": "
                writer.write(map.entries[index].value, level: level + 1, embeddingDepth: embeddingDepth)
            }
        case .tagged(let tag, let content):
            text += String(tag) + "("
            if tag == CBOR.Tag.encodedCBOR, expandEmbedded, embeddingDepth < Self.maximumEmbeddingDepth,
                case .byteString(let bytes) = content, let embedded = try? CBOR.decode(bytes)
            {
                text += "<< "
                write(embedded, level: level, embeddingDepth: embeddingDepth + 1)
                text += " >>"
            } else {
                write(content, level: level, embeddingDepth: embeddingDepth)
            }
            text += ")"
        case .simple(let value):
            text += "simple(\(value))"
        case .boolean(let value):
            text += value ? "true" : "false"
        case .null:
            text += "null"
        case .undefined:
            text += "undefined"
        case .float(let value):
            text += Self.format(value)
        }
    }

    private mutating func writeContainer(
        open: String, close: String, count: Int, level: Int, element: (inout CBORDiagnosticWriter, Int) -> Void
    ) {
        text += open
        guard count > 0 else {
            text += close
            return
        }
        for index in 0..<count {
            if indent {
                text += "\n" + String(repeating: "  ", count: level + 1)
            }
            element(&self, index)
            if index < count - 1 {
                text += indent ? "," : ", "
            }
        }
        if indent {
            text += "\n" + String(repeating: "  ", count: level)
        }
        text += close
    }

    private mutating func writeBytes(_ bytes: CBORBytes) {
        if let prefixLength = byteStringPrefixLength, bytes.count > max(prefixLength, 0) {
            text += "h'" + Hex.encode(bytes.prefix(max(prefixLength, 0))) + "...' / \(bytes.count) bytes /"
        } else {
            text += "h'" + Hex.encode(bytes) + "'"
        }
    }

    /// A JSON string literal, as RFC 8949 section 8 prescribes for text.
    private mutating func writeText(_ string: String) {
        text += JSONStringLiteral.quoted(string)
    }

    /// A floating-point value as RFC 8949 appendix A writes it: always with a fraction or an
    /// exponent (`1.0`, `1.0e+300`, `5.960464477539063e-8`), `Infinity`, `-Infinity`, `NaN`.
    static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        let description = value.description
        guard let e = description.firstIndex(of: "e") else {
            return description.contains(".") ? description : description + ".0"
        }
        var mantissa = String(description[..<e])
        if !mantissa.contains(".") { mantissa += ".0" }
        var exponent = description[description.index(after: e)...]
        var sign = ""
        if let first = exponent.first, first == "+" || first == "-" {
            sign = String(first)
            exponent = exponent.dropFirst()
        }
        let digits = exponent.drop { $0 == "0" }
        return mantissa + "e" + sign + (digits.isEmpty ? "0" : String(digits))
    }
}
