extension StringProtocol {
    /// The text without the white space (Unicode White_Space, line breaks included) at either
    /// end, as typed options and QR payloads are read.
    var trimmingWhitespace: String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else {
            return ""
        }
        return String(self[first...last])
    }
}
