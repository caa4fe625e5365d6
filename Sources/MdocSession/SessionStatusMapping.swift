import MdocCBOR
import MdocModel

/// The one place where session errors and SessionData status codes meet (ISO/IEC 18013-5
/// 9.1.1.4, Table 20): which status a failure is reported with, and what a received status means.
///
/// - 10, session encryption error: a message did not decrypt, key agreement or derivation failed,
///   the cipher suite is unknown, or encryption failed.
/// - 11, CBOR decoding error: a message, or the request or response inside it, did not decode.
/// - 20, session termination: every other reason to end the session (a counter at its limit, an
///   unexpected message, a failure to build our own message).
///
/// Status messages are never encrypted: `SessionData = {"status": uint}` without `data`.
public enum SessionStatusMapping {
    /// The status that reports `error` to the peer.
    public static func status(for error: SessionError) -> SessionData.Status {
        switch error.code {
        case .decryptionFailed, .keyDerivationFailed, .unsupportedCipherSuite, .encryptionFailed:
            return .sessionEncryptionError
        case .messageDecodingFailed:
            return .cborDecodingError
        default:
            return .sessionTermination
        }
    }

    /// The encoded status-only SessionData that reports `error` to the peer.
    public static func message(for error: SessionError) -> [UInt8] {
        SessionData(status: status(for: error)).encoded()
    }

    /// The encoded status-only SessionData with status 20, ending the session normally.
    public static var terminationMessage: [UInt8] {
        SessionData(status: .sessionTermination).encoded()
    }

    /// What a status received from `peer` means: `nil` for 20 (a normal end), otherwise a
    /// `SessionError.Code.peerReportedError` naming the status.
    public static func error(for status: SessionData.Status, from peer: SessionRole) -> SessionError? {
        guard status != .sessionTermination else { return nil }
        let who = peer == .mdoc ? "the mdoc" : "the mdoc reader"
        return SessionError(.peerReportedError, "\(who) ended the session with status \(status)")
    }

    /// How a session ends when `peer` sends `status`: ended normally by that peer for 20,
    /// failed with ``error(for:from:)`` otherwise.
    public static func outcome(for status: SessionData.Status, from peer: SessionRole) -> SessionOutcome {
        error(for: status, from: peer).map(SessionOutcome.failed) ?? (peer == .mdoc ? .terminatedByHolder : .terminatedByReader)
    }
}
