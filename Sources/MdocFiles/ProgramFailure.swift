import MdocText

/// The exit codes of the swift-mdoc programs (documented in the README and each `--help`).
///
/// 0 means everything the command was asked to check was verified. 64 is a usage error, as
/// `sysexits.h` names it (`EX_USAGE`) and the argument parser exits with.
public enum ExitStatus: Int32, Sendable, CaseIterable {
    /// Everything verified.
    case success = 0
    /// The input could not be read or is not well-formed CBOR or not the expected structure.
    case malformedInput = 2
    /// Issuer data authentication failed: untrusted or invalid certificate chain, bad MSO
    /// signature, MSO outside its validity window, docType mismatch, or a digest mismatch.
    case issuerAuthenticationFailed = 3
    /// mdoc (device) authentication failed: bad DeviceMac or DeviceSignature, wrong reader key,
    /// wrong transcript, or device-signed elements the MSO does not authorise.
    case deviceAuthenticationFailed = 4
    /// Issuer data verified, but device authentication could not be checked (no session
    /// transcript, or no reader key for a MAC).
    case deviceAuthenticationNotChecked = 5
    /// The response carries no document (only errors or a non-zero status).
    case noDocuments = 6
    /// A certificate, key or credential file given as an option is unusable.
    case badTrustInput = 7
    /// The live session did not complete: the transport could not be opened, no peer found
    /// within the timeout, the link was lost before the response was delivered, the BLE Ident
    /// did not match, or the peer ended the session with an error status (ISO/IEC 18013-5
    /// Table 20: 10 or 11).
    case sessionFailed = 8
    /// Reader authentication of a DeviceRequest did not hold (`verify-request`): a DocRequest
    /// carries no readerAuth, its certificate chain does not validate to a trusted reader root
    /// under the ISO/IEC 18013-5 Annex B reader authentication profile, or its signature does
    /// not verify over the SessionTranscript.
    case readerAuthenticationFailed = 9
    /// A conformance case failed (`test-holder`, `test-reader`): the device under test did not show the
    /// behaviour ISO/IEC 18013-5 requires of it in the case's session (docs/conformance.md).
    case conformanceFailed = 10
    /// An online response does not belong to its request (`verify --online-state`, ISO/IEC TS
    /// 18013-7 Annex C): it does not open with the request state's key and SessionTranscript
    /// (it answers another request or another origin, or was altered), or the request expired
    /// before the verification time.
    case onlineBindingFailed = 11
    /// The command line is wrong: an unknown option, a missing or malformed value, options that
    /// contradict each other, or a name (such as a doc type) the program does not know.
    case usage = 64
}

/// A failure that ends a program with a one-line message and a documented exit code.
///
/// The message is `TerminalText` (MdocText): what a failure quotes (a path, an error's description
/// holding a peer's docType or map key) is escaped where the message is made.
public struct ProgramFailure: Error, Sendable, CustomStringConvertible {
    /// The exit status the program ends with.
    public var status: ExitStatus
    /// The one line printed on standard error.
    public var message: TerminalText
    /// A second line saying where to look or what to do instead, printed after the message.
    public var hint: TerminalText?

    /// A failure ending with `status` and `message`, and `hint` on a line of its own.
    public init(_ status: ExitStatus, _ message: TerminalText, hint: TerminalText? = nil) {
        self.status = status
        self.message = message
        self.hint = hint
    }

    /// The message.
    public var description: String { message.description }
}
