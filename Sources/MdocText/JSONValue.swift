import MdocCBOR

/// A JSON value with a deterministic writer: object members keep the order they were built in,
/// so `--json` output is stable and diffable.
public indirect enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer that fits `Int64`.
    case int(Int64)
    /// Integers outside `Int64` (CBOR allows -2^64...2^64-1), written as JSON numbers.
    case bigInteger(String)
    /// A floating-point number (non-finite values are written as `null`).
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, members in order.
    case object([(String, JSONValue)])

    /// Equal when the serialized texts are equal.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        lhs.serialized() == rhs.serialized()
    }

    /// Hashes the serialized text, matching `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(serialized())
    }

    /// The JSON text; with `pretty`, one member per line indented by two spaces.
    public func serialized(pretty: Bool = false) -> String {
        var out = ""
        write(into: &out, pretty: pretty, depth: 0)
        return out
    }

    private func write(into out: inout String, pretty: Bool, depth: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let n): out += String(n)
        case .bigInteger(let digits): out += digits
        case .double(let d):
            if d == 0, d.sign == .minus {
                out += "-0.0"
            } else if d.isFinite {
                out += d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) + ".0" : String(d)
            } else {
                out += "null"
            }
        case .string(let s): Self.writeString(s, into: &out)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                if pretty { out += "\n" + String(repeating: "  ", count: depth + 1) }
                item.write(into: &out, pretty: pretty, depth: depth + 1)
            }
            if pretty { out += "\n" + String(repeating: "  ", count: depth) }
            out += "]"
        case .object(let members):
            if members.isEmpty { out += "{}"; return }
            out += "{"
            for (i, member) in members.enumerated() {
                if i > 0 { out += "," }
                if pretty { out += "\n" + String(repeating: "  ", count: depth + 1) }
                Self.writeString(member.0, into: &out)
                out += pretty ? ": " : ":"
                member.1.write(into: &out, pretty: pretty, depth: depth + 1)
            }
            if pretty { out += "\n" + String(repeating: "  ", count: depth) }
            out += "}"
        }
    }

    /// Writes `s` as a JSON string (RFC 8259 section 7).
    static func writeString(_ s: String, into out: inout String) {
        out += JSONStringLiteral.quoted(s)
    }
}
