import MdocCBOR
import MdocErrors

/// The `mdoc:` URI of QR device engagement (ISO/IEC 18013-5 8.2.2.3): `"mdoc:"` followed by the
/// base64url encoding, without padding, of the DeviceEngagement bytes (RFC 4648 section 5).
///
/// Reading is lenient where the standard leaves room: the scheme is case-insensitive (RFC 3986
/// section 3.1), trailing `=` padding is accepted, and ASCII white space inside the URI, as a
/// URI wrapped over lines in text or mail carries it, is removed (RFC 3986 Appendix C). The
/// decoded bytes are kept exactly as the DeviceEngagementBytes of the SessionTranscript.
public struct MdocURI: Sendable, CustomStringConvertible {
    /// The URI scheme, with its colon.
    public static let scheme = "mdoc:"

    /// DeviceEngagementBytes: the engagement with the bytes the URI carried.
    public let deviceEngagementBytes: EmbeddedCBOR<DeviceEngagement>

    /// The URI for an engagement, carrying its bytes unchanged.
    public init(deviceEngagementBytes: EmbeddedCBOR<DeviceEngagement>) {
        self.deviceEngagementBytes = deviceEngagementBytes
    }

    /// Parses an `mdoc:` URI; ASCII white space around it and inside it is ignored. The error
    /// says whether the scheme, the base64url text or the DeviceEngagement is wrong, and for a
    /// character outside base64url, which one and where, counted in characters from the `m` of
    /// `mdoc:`.
    public init(_ text: String) throws(MdocURIError) {
        let trimmed = text.trimmingASCIIWhitespace()
        guard trimmed.prefix(Self.scheme.count).lowercased() == Self.scheme else {
            throw MdocURIError(.wrongScheme, "the text does not start with \"mdoc:\"")
        }
        let payload = try Self.base64URLText(after: trimmed)
        guard !payload.isEmpty else {
            throw MdocURIError(.invalidBase64URL, "nothing follows \"mdoc:\"")
        }
        guard let bytes = Base64URL.decode(payload) else {
            throw MdocURIError(
                .invalidBase64URL,
                "the text after \"mdoc:\" is not base64url: its \(payload.count) characters end where no encoding of whole bytes can (the URI is cut short or altered at its end)")
        }
        do throws(CBORError) {
            deviceEngagementBytes = try EmbeddedCBOR(bytes: bytes)
        } catch {
            throw MdocURIError(.invalidDeviceEngagement, "the bytes are not a DeviceEngagement: \(error)", underlying: error)
        }
    }

    /// The text after the scheme of `uri` without its ASCII white space: base64url characters,
    /// then only `=` padding. Throws `invalidBase64URL` naming the first other character and
    /// its place in `uri` (from 1).
    private static func base64URLText(after uri: Substring) throws(MdocURIError) -> String {
        var text = ""
        var padded = false
        for (offset, character) in uri.enumerated().dropFirst(scheme.count) {
            if character.isASCIIWhitespace { continue }
            let inAlphabet = character.isASCII && (character.isLetter || character.isNumber || character == "-" || character == "_")
            if character == "=" {
                padded = true
            } else if !inAlphabet || padded {
                let why = inAlphabet ? "after the \"=\" padding" : "not a base64url character"
                throw MdocURIError(
                    .invalidBase64URL,
                    "the text after \"mdoc:\" is not base64url: \(character.shownInMessage) at character \(offset + 1) is \(why)")
            }
            text.append(character)
        }
        return text
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

extension Character {
    /// An ASCII space, tab or line break: what wraps a URI in text.
    fileprivate var isASCIIWhitespace: Bool {
        self == " " || self == "\t" || self == "\n" || self == "\r" || self == "\r\n"
    }

    /// A visible ASCII character in quotes; any other by its code points, `U+00A0`, which
    /// shows what a terminal would not (a no-break space, a control).
    fileprivate var shownInMessage: String {
        if let ascii = asciiValue, (0x21...0x7E).contains(ascii) { return "\"\(self)\"" }
        return unicodeScalars.map { scalar in
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }.joined(separator: " ")
    }
}

extension String {
    /// The text without leading and trailing ASCII spaces, tabs and line breaks.
    fileprivate func trimmingASCIIWhitespace() -> Substring {
        guard let start = firstIndex(where: { !$0.isASCIIWhitespace }), let end = lastIndex(where: { !$0.isASCIIWhitespace }) else {
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
