/// Why a live session's link could not be opened or was lost: no peer within the timeout, an
/// engagement offering no mode we can use, a peer busy with another session, or a BLE failure.
///
/// Equality compares the code only.
public struct LinkError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        /// The name of the code.
        public var description: String { name }

        /// A transport name (such as a `--transport` value) names a bearer this build does not
        /// have.
        public static let unsupportedTransport = Code("unsupportedTransport")
        /// The engagement offers no BLE mode the chosen mode allows.
        public static let noCommonMode = Code("noCommonMode")
        /// Nothing happened within a bound of ``SessionTimeouts``.
        public static let timeout = Code("timeout")
        /// The peer is in a session with someone else: another reader serves the engagement's
        /// service (ISO/IEC 18013-5 8.3.3.1.1.4).
        public static let busy = Code("busy")
        /// The BLE layer failed (see the message).
        public static let bluetooth = Code("bluetooth")
        /// The transport could not be opened: no controller, no Bluetooth in the kernel, an
        /// adapter in use, no permission (the message says what to do).
        public static let unavailable = Code("unavailable")
        /// The task running the session was cancelled.
        public static let cancelled = Code("cancelled")
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

    /// Compares the codes only.
    public static func == (lhs: LinkError, rhs: LinkError) -> Bool { lhs.code == rhs.code }
    /// Hashes the code only, matching `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
