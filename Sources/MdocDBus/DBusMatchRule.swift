/// Which signals a subscription takes (D-Bus Specification, "Match Rules"): the rule the bus
/// routes by, which the connection checks again for each signal it receives, since the bus sends
/// one copy of a signal for all the rules of a connection, and other peers may send a
/// connection signals of their own.
package struct DBusMatchRule: Sendable, Hashable, CustomStringConvertible {
    /// The sender: a unique name, or a well-known name that the connection resolves to its
    /// owner's unique name.
    package var sender: String?
    package var interface: String?
    package var member: String?
    /// The signal's object path.
    package var path: String?
    /// An object path the signal's path is or lies under.
    package var pathNamespace: String?
    /// An object path or a prefix ending in `/` that the first argument, a string or object
    /// path, matches the way `arg0path` does: either is a prefix of the other ending in `/`, or
    /// both are equal.
    package var arg0Path: String?
    /// A string the first argument equals (`arg0`), such as the bus name a NameOwnerChanged
    /// signal is about.
    package var arg0: String?

    /// A rule for the signals that match every part given.
    package init(
        sender: String? = nil, interface: String? = nil, member: String? = nil, path: String? = nil, pathNamespace: String? = nil,
        arg0Path: String? = nil, arg0: String? = nil
    ) {
        (self.sender, self.interface, self.member) = (sender, interface, member)
        (self.path, self.pathNamespace, self.arg0Path, self.arg0) = (path, pathNamespace, arg0Path, arg0)
    }

    /// The rule as AddMatch takes it.
    package var description: String {
        var parts = ["type='signal'"]
        if let sender { parts.append("sender='\(sender)'") }
        if let interface { parts.append("interface='\(interface)'") }
        if let member { parts.append("member='\(member)'") }
        if let path { parts.append("path='\(path)'") }
        if let pathNamespace { parts.append("path_namespace='\(pathNamespace)'") }
        if let arg0Path { parts.append("arg0path='\(arg0Path)'") }
        if let arg0 { parts.append("arg0='\(arg0)'") }
        return parts.joined(separator: ",")
    }

    /// Whether `message` is a signal the rule takes; `owner` is the unique name that owns the
    /// rule's well-known sender name, when it has one.
    package func matches(_ message: DBusMessage, owner: String?) -> Bool {
        guard message.kind == .signal else { return false }
        if let sender, message.sender != sender, message.sender != owner || owner == nil { return false }
        if let interface, message.interface != interface { return false }
        if let member, message.member != member { return false }
        if let path, message.path != path { return false }
        if let pathNamespace {
            guard let signalPath = message.path,
                  signalPath == pathNamespace || signalPath.hasPrefix(pathNamespace == "/" ? "/" : pathNamespace + "/") else {
                return false
            }
        }
        if let arg0Path {
            guard let argument = message.body.first?.stringValue else { return false }
            let related = argument == arg0Path || (arg0Path.hasSuffix("/") && argument.hasPrefix(arg0Path))
                || (argument.hasSuffix("/") && arg0Path.hasPrefix(argument))
            if !related { return false }
        }
        if let arg0, message.body.first?.stringValue != arg0 { return false }
        return true
    }
}
