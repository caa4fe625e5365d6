import MdocErrors

/// A failure to decode or build an ATT PDU (Bluetooth Core Vol 3 Part F 3.4), naming the PDU
/// and what was wrong with it.
///
/// Equality compares the code only.
public typealias ATTError = MdocError<ATTErrorDomain>

/// The domain of ``ATTError``, whose errors print `code: reason`.
public enum ATTErrorDomain: CodeNamingErrorDomain {
    /// The opcode of the PDU concerned, when known.
    public typealias Context = ATTOpcode?
}

extension MdocError where Domain == ATTErrorDomain {
    /// The opcode of the PDU concerned, when known.
    public var opcode: ATTOpcode? { context }

    /// The Error Code a server answers a request with when this error is raised decoding it
    /// (Core Vol 3 Part F 3.4.1.1): Request Not Supported for an unknown opcode, else Invalid PDU.
    public var responseErrorCode: ATTErrorCode {
        code == .unknownOpcode ? .requestNotSupported : .invalidPDU
    }

    /// A failure of kind `code` in the PDU with `opcode`, explained by `reason`, made at
    /// `fileID`, `line` (the caller's place, unless given).
    public init(_ code: Code, _ reason: String, opcode: ATTOpcode?, fileID: String = #fileID, line: Int = #line) {
        self.init(code, reason, context: opcode, fileID: fileID, line: line)
    }
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
