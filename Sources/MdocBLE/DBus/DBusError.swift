import Glibc

/// A D-Bus error: an error reply's name and message (D-Bus Specification, "Message Types:
/// ERROR"), or a failure of sd-bus itself under a name of this toolkit.
struct DBusError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The error name, such as `org.bluez.Error.NotPermitted`.
    let name: String
    /// The human-readable message.
    let message: String

    /// The name sd-bus failures carry.
    static let libraryErrorName = "org.swiftmdoc.DBus.Error.Library"
    /// The name of a method call that got no reply in time.
    static let noReplyName = "org.freedesktop.DBus.Error.NoReply"
    /// The name of a call refused by the bus policy or polkit.
    static let accessDeniedName = "org.freedesktop.DBus.Error.AccessDenied"
    /// The name of a call to a bus name nobody owns.
    static let serviceUnknownName = "org.freedesktop.DBus.Error.ServiceUnknown"
    /// The name of a call to a method or object the peer does not have.
    static let unknownMethodName = "org.freedesktop.DBus.Error.UnknownMethod"

    /// An sd-bus call that returned `-errno` while doing `what`.
    static func library(_ result: Int32, _ what: String) -> DBusError {
        DBusError(name: libraryErrorName, message: "\(what): \(String(cString: strerror(-result)))")
    }

    /// A message whose arguments are not what D-Bus allows or the interface says.
    static func malformed(_ what: String) -> DBusError {
        DBusError(name: "org.freedesktop.DBus.Error.InvalidArgs", message: what)
    }

    var description: String { message.isEmpty ? name : "\(name): \(message)" }
}
