#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a D-Bus message bus listens (D-Bus Specification, "Server Addresses"): the Unix
/// socket transports, by path or by abstract name.
package enum DBusAddress: Sendable, Hashable, CustomStringConvertible {
    /// `unix:path=…`
    case path(String)
    /// `unix:abstract=…`: a name in the Linux abstract socket namespace.
    case abstract(String)

    /// The system bus when `DBUS_SYSTEM_BUS_ADDRESS` does not name another
    /// (Specification: "Well-known Message Bus Instances"; the path systemd and Debian use).
    package static let defaultSystemBus = "unix:path=/run/dbus/system_bus_socket"

    /// The system bus's addresses: `DBUS_SYSTEM_BUS_ADDRESS` when set, else the default.
    package static func systemBus() throws(DBusError) -> [DBusAddress] {
        try parse(ProcessInfo.processInfo.environment["DBUS_SYSTEM_BUS_ADDRESS"] ?? defaultSystemBus)
    }

    /// The addresses of `text`, in the order to try them: `;`-separated `transport:key=value,…`,
    /// values %-escaped. Transports other than `unix` with `path` or `abstract` are skipped;
    /// throws when none is left.
    package static func parse(_ text: String) throws(DBusError) -> [DBusAddress] {
        var addresses: [DBusAddress] = []
        for entry in text.split(separator: ";") {
            guard let colon = entry.firstIndex(of: ":"), entry[..<colon] == "unix" else { continue }
            var keys: [String: String] = [:]
            for pair in entry[entry.index(after: colon)...].split(separator: ",") {
                guard let equals = pair.firstIndex(of: "="), let value = unescape(pair[pair.index(after: equals)...]) else {
                    throw DBusError.connection("the D-Bus address \"\(text)\" is not well formed at \"\(pair)\"")
                }
                keys[String(pair[..<equals])] = value
            }
            if let path = keys["path"] {
                addresses.append(.path(path))
            } else if let name = keys["abstract"] {
                addresses.append(.abstract(name))
            }
        }
        guard !addresses.isEmpty else {
            throw DBusError.connection("the D-Bus address \"\(text)\" names no Unix socket (unix:path=… or unix:abstract=…)")
        }
        return addresses
    }

    /// `value` with each `%XX` replaced by its octet; nil for a bad escape or invalid UTF-8.
    private static func unescape(_ value: Substring) -> String? {
        var octets: [UInt8] = []
        var index = value.utf8.startIndex
        let utf8 = value.utf8
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let high = utf8.index(after: index)
                guard high < utf8.endIndex else { return nil }
                let low = utf8.index(after: high)
                guard low < utf8.endIndex, let octet = UInt8(String(decoding: [utf8[high], utf8[low]], as: UTF8.self), radix: 16) else {
                    return nil
                }
                octets.append(octet)
                index = utf8.index(after: low)
            } else {
                octets.append(byte)
                index = utf8.index(after: index)
            }
        }
        return String(validating: octets, as: UTF8.self)
    }

    package var description: String {
        switch self {
        case .path(let path): return "unix:path=\(path)"
        case .abstract(let name): return "unix:abstract=\(name)"
        }
    }
}
