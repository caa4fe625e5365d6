import MdocErrors

/// A failure to decode or build an ATT PDU (Bluetooth Core Vol 3 Part F 3.4), naming the PDU
/// and what was wrong with it.
///
/// Equality compares the code only.
public struct ATTError: CodedError {
    /// The kind of failure. New codes may be added without breaking callers.
    public typealias Code = ErrorKind<ATTError>

    /// What kind of failure this is; compare this, not the message.
    public var code: Code
    /// What was wrong and where, for people.
    public var reason: String
    /// The opcode of the PDU concerned, when known.
    public var opcode: ATTOpcode?

    /// A failure of kind `code` in the PDU with `opcode`, explained by `reason`.
    public init(_ code: Code, _ reason: String, opcode: ATTOpcode? = nil) {
        self.code = code
        self.reason = reason
        self.opcode = opcode
    }

    /// The Error Code a server answers a request with when this error is raised decoding it
    /// (Core Vol 3 Part F 3.4.1.1): Request Not Supported for an unknown opcode, else Invalid PDU.
    public var responseErrorCode: ATTErrorCode {
        code == .unknownOpcode ? .requestNotSupported : .invalidPDU
    }

    /// The code and the reason.
    public var description: String { "\(code): \(reason)" }
}

extension ErrorKind where Domain == ATTError {
    /// The bytes are too short, too long or inconsistent for the PDU their opcode names.
    public static let malformedPDU = Self("malformedPDU")
    /// The opcode is not one this codec implements (it may still be a valid ATT opcode).
    public static let unknownOpcode = Self("unknownOpcode")
    /// Parameters given to build a PDU cannot be encoded (for example attribute values of
    /// different lengths in one Read By Type Response).
    public static let invalidParameter = Self("invalidParameter")
}
