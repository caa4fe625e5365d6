/// A D-Bus error: an error reply's name and message (D-Bus Specification, "Message Types:
/// ERROR"), or a failure of the connection itself under a name of this toolkit.
package struct DBusError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The error name, such as `org.bluez.Error.NotPermitted`.
    package let name: String
    /// The human-readable message.
    package let message: String

    /// The name of failures of the connection: no bus, a refused authentication, the link lost.
    package static let connectionErrorName = "org.swiftmdoc.DBus.Error.Connection"
    /// The name of a method call that got no reply in time, or whose connection closed first.
    package static let noReplyName = "org.freedesktop.DBus.Error.NoReply"
    /// The name of a call refused by the bus policy or polkit.
    package static let accessDeniedName = "org.freedesktop.DBus.Error.AccessDenied"
    /// The name of a call to a bus name nobody owns.
    package static let serviceUnknownName = "org.freedesktop.DBus.Error.ServiceUnknown"
    /// The name of a call to a method the peer does not have.
    package static let unknownMethodName = "org.freedesktop.DBus.Error.UnknownMethod"
    /// The name of a call to an object the peer does not have.
    package static let unknownObjectName = "org.freedesktop.DBus.Error.UnknownObject"
    /// The name of a call whose arguments are not what the method takes.
    package static let invalidArgumentsName = "org.freedesktop.DBus.Error.InvalidArgs"
    /// The name of a signature that is not valid.
    package static let invalidSignatureName = "org.freedesktop.DBus.Error.InvalidSignature"

    /// The connection failed while doing `what`.
    package static func connection(_ what: String) -> DBusError {
        DBusError(name: connectionErrorName, message: what)
    }

    /// A message whose arguments are not what D-Bus allows or the interface says.
    package static func malformed(_ what: String) -> DBusError {
        DBusError(name: invalidArgumentsName, message: what)
    }

    /// The signature `signature` is not valid, because of `why`.
    package static func invalidSignature(_ signature: String, _ why: String) -> DBusError {
        DBusError(name: invalidSignatureName, message: "the signature \"\(signature)\" is not valid: \(why)")
    }

    package var description: String { message.isEmpty ? name : "\(name): \(message)" }
}
