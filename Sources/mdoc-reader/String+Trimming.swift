extension StringProtocol {
    /// The text without the spaces and tabs at either end: Unicode general category Zs and
    /// U+0009, what Foundation's `CharacterSet.whitespaces` holds. Line breaks and other
    /// controls stay, to be shown escaped.
    var trimmingSpaces: String {
        trimming { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }
    }

    /// The text without white space and line breaks at either end: Unicode general category Z*,
    /// U+0009 to U+000D and U+0085, what Foundation's `CharacterSet.whitespacesAndNewlines` holds.
    var trimmingSpacesAndLineBreaks: String {
        trimming { scalar in
            switch scalar.properties.generalCategory {
            case .spaceSeparator, .lineSeparator, .paragraphSeparator: return true
            default: return ("\t"..."\r").contains(scalar) || scalar == "\u{85}"
            }
        }
    }

    private func trimming(_ isTrimmed: (Unicode.Scalar) -> Bool) -> String {
        let scalars = String(self).unicodeScalars
        guard let first = scalars.firstIndex(where: { !isTrimmed($0) }), let last = scalars.lastIndex(where: { !isTrimmed($0) }) else {
            return ""
        }
        return String(scalars[first...last])
    }
}
