/// Why a PC/SC call failed: a `code` to match on, and the PC/SC result code behind it when
/// pcsc-lite returned one (`responseCode`).
public typealias PCSCError = MdocError<PCSCErrorDomain>

/// The domain of ``PCSCError``: its errors carry the `SCARD_*` result code pcsc-lite returned,
/// nil for a failure the toolkit finds itself (a command too long to send).
public enum PCSCErrorDomain: ErrorDomain {
    /// The PC/SC result code, when the failure came from pcsc-lite.
    public typealias Context = PCSCResponseCode?

    /// The reason, then the result code's name and value: `pcscd is not running
    /// (SCARD_E_NO_SERVICE (0x8010001D))`.
    public static func description(of error: PCSCError) -> String {
        error.responseCode.map { "\(error.reason) (\($0))" } ?? error.reason
    }
}

extension MdocError where Domain == PCSCErrorDomain {
    /// The PC/SC result code pcsc-lite returned; nil when the toolkit found the failure itself.
    public var responseCode: PCSCResponseCode? { context }

    /// The error of `call`'s result `responseCode`: its kind, and a reason that names the call
    /// and what pcsc-lite says of the code. `removal` is the kind of `SCARD_E_NO_SMARTCARD`:
    /// `noCard` before a connection, `cardRemoved` on one.
    init(
        _ call: String, _ responseCode: PCSCResponseCode, removal: Code = .cardRemoved, fileID: String = #fileID,
        line: Int = #line
    ) {
        let code: Code =
            switch responseCode {
            case .noService, .serviceStopped: .noService
            case .noReadersAvailable: .noReader
            case .unknownReader: .unknownReader
            case .timeout: .timeout
            case .cancelled: .cancelled
            case .removedCard, .resetCard, .unpoweredCard, .unresponsiveCard: .cardRemoved
            case .noSmartcard: removal
            case .readerUnavailable: .readerUnavailable
            case .sharingViolation: .sharingViolation
            case .protocolMismatch: .protocolMismatch
            case .notTransacted: .notTransacted
            case .unsupportedFeature: .unsupported
            default: .failed
            }
        self.init(code, "\(call): \(PCSCLibrary.text(of: responseCode))", context: responseCode, fileID: fileID, line: line)
    }
}

extension ErrorKind where Domain == PCSCError {
    /// pcscd is not running, or not at the socket the client library looks at
    /// (`SCARD_E_NO_SERVICE`, `SCARD_E_SERVICE_STOPPED`).
    public static let noService = Self("noService")
    /// No reader is attached (`SCARD_E_NO_READERS_AVAILABLE`), or none came within a wait's bound.
    public static let noReader = Self("noReader")
    /// No reader of the name given (`SCARD_E_UNKNOWN_READER`).
    public static let unknownReader = Self("unknownReader")
    /// No card came within a wait's bound, or there is none to connect to
    /// (`SCARD_E_NO_SMARTCARD` before a connection).
    public static let noCard = Self("noCard")
    /// The card left the reader, was reset or powered down by another connection, or stopped
    /// answering (`SCARD_W_REMOVED_CARD`, `SCARD_E_NO_SMARTCARD` on a connection,
    /// `SCARD_W_RESET_CARD`, `SCARD_W_UNPOWERED_CARD`, `SCARD_W_UNRESPONSIVE_CARD`).
    public static let cardRemoved = Self("cardRemoved")
    /// The reader is gone or broken (`SCARD_E_READER_UNAVAILABLE`).
    public static let readerUnavailable = Self("readerUnavailable")
    /// A bound given to pcscd ran out (`SCARD_E_TIMEOUT`) where no more specific kind applies.
    public static let timeout = Self("timeout")
    /// The wait was cancelled (`SCARD_E_CANCELLED`, or the task's cancellation).
    public static let cancelled = Self("cancelled")
    /// Another connection holds the card exclusively (`SCARD_E_SHARING_VIOLATION`).
    public static let sharingViolation = Self("sharingViolation")
    /// The card speaks none of the protocols asked for (`SCARD_E_PROTO_MISMATCH`).
    public static let protocolMismatch = Self("protocolMismatch")
    /// The reader did not carry the command to the card and its answer back
    /// (`SCARD_E_NOT_TRANSACTED`): the card may have gone, or the command was more than the
    /// reader carries.
    public static let notTransacted = Self("notTransacted")
    /// The reader or its driver does not do what was asked (`SCARD_E_UNSUPPORTED_FEATURE`).
    public static let unsupported = Self("unsupported")
    /// A command the toolkit does not send: empty, or longer than
    /// ``PCSCCard/maximumCommandLength``.
    public static let invalidCommand = Self("invalidCommand")
    /// Any other PC/SC failure; `responseCode` says which.
    public static let failed = Self("failed")
}
