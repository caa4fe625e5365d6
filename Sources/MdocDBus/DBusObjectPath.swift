/// The syntax of object paths (D-Bus Specification, "Valid Object Paths").
package enum DBusObjectPath {
    /// Whether `path` is `/` or `/`-separated non-empty elements of `[A-Za-z0-9_]`, with no
    /// trailing `/`.
    package static func isValid(_ path: String) -> Bool {
        guard path.hasPrefix("/") else { return false }
        if path == "/" { return true }
        return path.dropFirst().split(separator: "/", omittingEmptySubsequences: false).allSatisfy { element in
            !element.isEmpty && element.utf8.allSatisfy { byte in
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
            }
        }
    }
}
