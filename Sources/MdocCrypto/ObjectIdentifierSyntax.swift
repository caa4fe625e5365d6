/// The dotted-decimal form of an object identifier (`1.0.18013.5.1.2`), in which certificates
/// name their extended key usages (RFC 5280 section 4.2.1.12) and this toolkit reads and
/// prints them.
///
/// The form checked is the one OpenSSL prints a certificate's OIDs in, so that text that passes
/// compares equal to a certificate's purpose: at least two arcs of decimal digits without
/// leading zeros, separated by single dots; the first arc 0, 1 or 2, and under 0 and 1 the
/// second arc at most 39 (ITU-T X.660 and X.690 section 8.19.4).
public enum ObjectIdentifierSyntax {
    /// Why `text` is not a dotted-decimal object identifier (the reason does not repeat the
    /// text), or `nil` when it is one.
    public static func problem(in text: String) -> String? {
        let arcs = text.split(separator: ".", omittingEmptySubsequences: false)
        guard arcs.count >= 2 else {
            return "it has fewer than two arcs"
        }
        for arc in arcs {
            guard !arc.isEmpty, arc.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
                return "it is not decimal numbers separated by single dots"
            }
            guard arc == "0" || !arc.hasPrefix("0") else {
                return "an arc has a leading zero"
            }
        }
        guard let first = Int(arcs[0]), first <= 2 else {
            return "the first arc is not 0, 1 or 2"
        }
        if first < 2 {
            guard arcs[1].count <= 2, let second = Int(arcs[1]), second <= 39 else {
                return "under arc \(first) the second arc is at most 39"
            }
        }
        return nil
    }
}
