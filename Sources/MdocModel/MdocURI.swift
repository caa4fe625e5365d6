import MdocCBOR
import MdocErrors

/// The `mdoc:` URI of QR device engagement (ISO/IEC 18013-5 8.2.2.3): `"mdoc:"` followed by the
/// base64url encoding, without padding, of the DeviceEngagement bytes (RFC 4648 section 5).
///
/// Reading is lenient where the standard leaves room: the scheme is case-insensitive (RFC 3986
/// section 3.1) and trailing `=` padding is accepted. The decoded bytes are kept exactly as the
/// DeviceEngagementBytes of the SessionTranscript.
public struct MdocURI: Sendable, CustomStringConvertible {
    /// The URI scheme, with its colon.
    public static let scheme = "mdoc:"

    /// DeviceEngagementBytes: the engagement with the bytes the URI carried.
    public let deviceEngagementBytes: EmbeddedCBOR<DeviceEngagement>

    /// The URI for an engagement, carrying its bytes unchanged.
    public init(deviceEngagementBytes: EmbeddedCBOR<DeviceEngagement>) {
        self.deviceEngagementBytes = deviceEngagementBytes
    }

    /// Parses an `mdoc:` URI; leading and trailing whitespace is ignored. The error says whether
    /// the scheme, the base64url text or the DeviceEngagement is wrong.
    public init(_ text: String) throws(MdocURIError) {
        let trimmed = text.trimmingASCIIWhitespace()
        guard trimmed.prefix(Self.scheme.count).lowercased() == Self.scheme else {
            throw MdocURIError(.wrongScheme, "the text does not start with \"mdoc:\"")
        }
        let payload = trimmed.dropFirst(Self.scheme.count)
        guard !payload.isEmpty else {
            throw MdocURIError(.invalidBase64URL, "nothing follows \"mdoc:\"")
        }
        guard let bytes = Base64URL.decode(payload) else {
            throw MdocURIError(.invalidBase64URL, "the text after \"mdoc:\" is not base64url")
        }
        do throws(CBORError) {
            deviceEngagementBytes = try EmbeddedCBOR(bytes: bytes)
        } catch {
            throw MdocURIError(.invalidDeviceEngagement, "the bytes are not a DeviceEngagement: \(error)", underlying: error)
        }
    }

    /// `mdoc:` and the unpadded base64url of the DeviceEngagement bytes.
    public var description: String {
        Self.scheme + Base64URL.encode(Array(deviceEngagementBytes.bytes))
    }
}

/// A failure to read an `mdoc:` URI (ISO/IEC 18013-5 8.2.2.3), saying which part is wrong.
public typealias MdocURIError = MdocError<MdocURIErrorDomain>

/// The domain of ``MdocURIError``: its errors keep the CBOR failure behind
/// `Code.invalidDeviceEngagement`.
public enum MdocURIErrorDomain: ErrorDomain {
    /// The CBOR failure behind the error, if any.
    public typealias Context = CBORError?
}

extension MdocError where Domain == MdocURIErrorDomain {
    /// The CBOR failure behind `Code.invalidDeviceEngagement`, with its path.
    public var underlying: CBORError? { context }

    /// An error of kind `code` with `reason` and the CBOR failure `underlying`, made at
    /// `fileID`, `line` (the caller's place, unless given).
    public init(_ code: Code, _ reason: String, underlying: CBORError?, fileID: String = #fileID, line: Int = #line) {
        self.init(code, reason, context: underlying, fileID: fileID, line: line)
    }
}

extension String {
    /// The text without leading and trailing ASCII spaces, tabs and line breaks.
    fileprivate func trimmingASCIIWhitespace() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else {
            return Substring()
        }
        return self[start...end]
    }
}

extension ErrorKind where Domain == MdocURIError {
    /// The text does not start with `mdoc:`.
    public static let wrongScheme = Self("wrongScheme")
    /// The text after the scheme is empty or not base64url.
    public static let invalidBase64URL = Self("invalidBase64URL")
    /// The decoded bytes are not a well-formed DeviceEngagement.
    public static let invalidDeviceEngagement = Self("invalidDeviceEngagement")
}
