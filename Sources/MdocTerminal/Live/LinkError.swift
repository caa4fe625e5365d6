/// Why a live session's link could not be opened or was lost: no peer within the timeout, an
/// unsupported transport, an engagement offering no mode we can use, or a BLE failure.
public struct LinkError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        /// The name of the code.
        public var description: String { name }

        /// `--transport` names a bearer this build does not have.
        public static let unsupportedTransport = Code("unsupportedTransport")
        /// The engagement offers no BLE mode the chosen `--ble-mode` allows.
        public static let noCommonMode = Code("noCommonMode")
        /// Nothing happened within the timeout.
        public static let timeout = Code("timeout")
        /// The BLE layer failed (see the message).
        public static let bluetooth = Code("bluetooth")
        /// The transport could not be opened: no controller, no Bluetooth in the kernel, an
        /// adapter in use, no permission (the message says what to do).
        public static let unavailable = Code("unavailable")
    }

    /// What kind of failure.
    public var code: Code
    /// What happened, for people.
    public var reason: String

    /// A failure with `code` and `reason`.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    /// The reason.
    public var description: String { reason }

    public static func == (lhs: LinkError, rhs: LinkError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
