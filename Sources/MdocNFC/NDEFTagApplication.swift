import MdocModel

/// The card side of NFC engagement: an NFC Forum Type 4 Tag's NDEF application (Type 4 Tag
/// Technical Specification 2.0, 5 and 7) answering SELECT, READ BINARY and UPDATE BINARY for
/// ISO/IEC 18013-5 8.2.2.1.
///
/// - Static handover: a read-only NDEF file holding the Handover Select message.
/// - Negotiated handover (NFC Forum TNEP 1.0 with Connection Handover 1.5): the NDEF file first
///   holds a Service Parameter record for `urn:nfc:sn:handover`; the reader writes a Service
///   Select record and reads a TNEP status back, then writes a Handover Request message and
///   reads back the Handover Select message the holder's closure made for it.
///
/// Writes follow Type 4 Tag 2.0 7.5.5: one UPDATE BINARY of the length and the message, or
/// the length set to zero, the message written in order, then the length. An answer that does
/// not parse or a closure that throws ends the write with `6A80` and leaves the file as it was.
/// ``NFCCard`` routes commands here once the reader has selected the application.
public actor NDEFTagApplication {
    /// The NDEF Tag Application's AID (Type 4 Tag 2.0, 5.4.2).
    public static let applicationIdentifier: [UInt8] = [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01]
    /// The NDEF file's identifier.
    public static let ndefFileIdentifier: UInt16 = 0xE104
    /// The largest NDEF file, its length field included: READ BINARY and UPDATE BINARY address
    /// offsets up to 32767 (P1 bit 8 is 0), and this toolkit keeps the file within them.
    public static let maximumNDEFFileSize = 0x7FFF
    /// The MLe and MLc this application advertises by default.
    public static let defaultMaximumDataLength = 0x7FFF

    /// What the holder answers a Handover Request message with in negotiated handover; when it
    /// throws, the reader's write is refused with `6A80`.
    public typealias HandoverSelector = @Sendable (HandoverRequestMessage) async throws -> HandoverSelectMessage

    private enum Mode {
        case staticHandover
        case negotiated(ServiceParameterRecord, HandoverSelector)
    }

    private enum Exchange {
        case serviceSelect
        case handoverRequest
        case complete
    }

    private enum File {
        case capabilityContainer
        case ndef
    }

    private let mode: Mode
    private let capabilityContainer: CapabilityContainer
    private let initialFile: [UInt8]
    private let staticSelect: HandoverSelectMessage?
    private var selectedFile: File?
    private var ndefFile: [UInt8]
    private var exchange: Exchange = .serviceSelect
    private var writing = false

    /// The handover of the engagement once it is complete, for the SessionTranscript
    /// (18013-5 9.1.5.1): for static handover after the reader has read the whole message,
    /// for negotiated handover once the holder's Handover Select is in the file.
    public private(set) var handover: Handover?

    /// A tag for static handover holding `handoverSelect`, whose bytes fit in the NDEF file
    /// with its length (``maximumNDEFFileSize``), or it is a programming error.
    public init(staticHandover handoverSelect: HandoverSelectMessage, maximumDataLength: Int = defaultMaximumDataLength) {
        precondition(2 + handoverSelect.bytes.count <= Self.maximumNDEFFileSize, "a Handover Select message too long for the NDEF file")
        mode = .staticHandover
        capabilityContainer = CapabilityContainer(
            maximumResponseDataLength: maximumDataLength, maximumCommandDataLength: maximumDataLength,
            ndefFileIdentifier: Self.ndefFileIdentifier, maximumNDEFFileSize: Self.maximumNDEFFileSize, writeAccess: CapabilityContainer.accessDenied)
        initialFile = Self.file(holding: handoverSelect.bytes)
        ndefFile = initialFile
        staticSelect = handoverSelect
    }

    /// A tag for negotiated handover offering `serviceParameter` (by default Connection
    /// Handover with the shortest waiting time and the NDEF file's size), answering each
    /// Handover Request message with what `select` makes of it.
    public init(negotiatedHandover serviceParameter: ServiceParameterRecord = ServiceParameterRecord(
                    minimumWaitingTime: 0, maximumWaitingTimeExtensions: 15, maximumNDEFMessageSize: UInt16(maximumNDEFFileSize - 2)),
                maximumDataLength: Int = defaultMaximumDataLength,
                select: @escaping HandoverSelector) {
        mode = .negotiated(serviceParameter, select)
        capabilityContainer = CapabilityContainer(
            maximumResponseDataLength: maximumDataLength, maximumCommandDataLength: maximumDataLength,
            ndefFileIdentifier: Self.ndefFileIdentifier, maximumNDEFFileSize: Self.maximumNDEFFileSize, writeAccess: CapabilityContainer.accessGranted)
        initialFile = Self.file(holding: NDEFMessage(records: [serviceParameter.record]).bytes)
        ndefFile = initialFile
        staticSelect = nil
    }

    /// The NDEF file: the 2-byte length, then the message.
    private static func file(holding message: [UInt8]) -> [UInt8] {
        [UInt8(message.count >> 8), UInt8(truncatingIfNeeded: message.count)] + message
    }

    /// Starts over, as after the reader selected the application: no file selected, the NDEF
    /// file as it was first. The handover of an earlier engagement stays until a new one ends.
    public func select() {
        selectedFile = nil
        ndefFile = initialFile
        exchange = .serviceSelect
        writing = false
    }

    /// The response to `command`, sent after the application was selected.
    public func respond(to command: CommandAPDU) async -> ResponseAPDU {
        guard command.cla == 0x00 else {
            return ResponseAPDU(statusWord: command.cla & CommandAPDU.chainingClass != 0 ? .commandChainingNotSupported : .classNotSupported)
        }
        switch command.ins {
        case CommandAPDU.Instruction.select where command.p1 == 0x00:
            return selectFile(command)
        case CommandAPDU.Instruction.select:
            return ResponseAPDU(statusWord: .incorrectParameters)
        case CommandAPDU.Instruction.readBinary:
            return readBinary(command)
        case CommandAPDU.Instruction.updateBinary:
            return await updateBinary(command)
        default:
            return ResponseAPDU(statusWord: .instructionNotSupported)
        }
    }

    /// SELECT by file identifier (Type 4 Tag 2.0, 5.4.3, 5.4.4): P2 `0C` (or `00`), two bytes.
    private func selectFile(_ command: CommandAPDU) -> ResponseAPDU {
        guard command.p2 == 0x0C || command.p2 == 0x00 else { return ResponseAPDU(statusWord: .incorrectParameters) }
        guard command.data.count == 2 else { return ResponseAPDU(statusWord: .wrongLength) }
        switch UInt16(command.data[0]) << 8 | UInt16(command.data[1]) {
        case CapabilityContainer.fileIdentifier: selectedFile = .capabilityContainer
        case Self.ndefFileIdentifier: selectedFile = .ndef
        default: return ResponseAPDU(statusWord: .fileOrApplicationNotFound)
        }
        return ResponseAPDU(statusWord: .success)
    }

    /// READ BINARY (Type 4 Tag 2.0, 5.4.5): at most Le and MLe bytes from the offset, fewer at
    /// the end of the file.
    private func readBinary(_ command: CommandAPDU) -> ResponseAPDU {
        guard command.data.isEmpty else { return ResponseAPDU(statusWord: .wrongLength) }
        guard command.p1 & 0x80 == 0 else { return ResponseAPDU(statusWord: .incorrectParameters) }
        let file: [UInt8]
        switch selectedFile {
        case .capabilityContainer: file = capabilityContainer.bytes
        case .ndef: file = ndefFile
        case nil: return ResponseAPDU(statusWord: .commandNotAllowedNoCurrentEF)
        }
        let offset = command.p1p2
        guard offset <= file.count else { return ResponseAPDU(statusWord: .wrongParameters) }
        let count = min(command.expectedLength ?? 0, capabilityContainer.maximumResponseDataLength, file.count - offset)
        if selectedFile == .ndef, case .staticHandover = mode, offset + count == file.count, let staticSelect {
            handover = staticSelect.handover(request: nil)
        }
        return ResponseAPDU(data: Array(file[offset..<offset + count]), statusWord: .success)
    }

    /// UPDATE BINARY (Type 4 Tag 2.0, 5.4.6, 7.5.5) of the NDEF file in negotiated handover.
    private func updateBinary(_ command: CommandAPDU) async -> ResponseAPDU {
        guard case .negotiated(let serviceParameter, let selector) = mode else {
            return ResponseAPDU(statusWord: selectedFile == nil ? .commandNotAllowedNoCurrentEF : .securityStatusNotSatisfied)
        }
        guard selectedFile == .ndef else {
            return ResponseAPDU(statusWord: selectedFile == nil ? .commandNotAllowedNoCurrentEF : .securityStatusNotSatisfied)
        }
        guard !command.data.isEmpty, command.data.count <= capabilityContainer.maximumCommandDataLength else {
            return ResponseAPDU(statusWord: .wrongLength)
        }
        guard command.p1 & 0x80 == 0 else { return ResponseAPDU(statusWord: .incorrectParameters) }
        let offset = command.p1p2
        guard offset <= ndefFile.count, offset + command.data.count <= Self.maximumNDEFFileSize else {
            return ResponseAPDU(statusWord: .wrongParameters)
        }
        let previous = ndefFile
        if offset + command.data.count > ndefFile.count {
            ndefFile += [UInt8](repeating: 0, count: offset + command.data.count - ndefFile.count)
        }
        ndefFile.replaceSubrange(offset..<offset + command.data.count, with: command.data)
        guard offset < 2, ndefFile.count >= 2 else { return ResponseAPDU(statusWord: .success) }
        let length = Int(ndefFile[0]) << 8 | Int(ndefFile[1])
        guard length > 0 else {
            writing = true
            return ResponseAPDU(statusWord: .success)
        }
        guard ndefFile.count >= 2 + length, offset + command.data.count == 2 + length || writing else {
            ndefFile = previous
            return ResponseAPDU(statusWord: .wrongLength)
        }
        writing = false
        let message = Array(ndefFile[2..<2 + length])
        do {
            let answer = try await answer(message, serviceParameter: serviceParameter, selector: selector)
            ndefFile = Self.file(holding: answer)
            return ResponseAPDU(statusWord: .success)
        } catch {
            ndefFile = previous
            return ResponseAPDU(statusWord: .incorrectData)
        }
    }

    /// The NDEF message answering what the reader wrote (TNEP 1.0, 4.2, 4.3; Connection
    /// Handover 1.5): a TNEP status for a Service Select, a Handover Select for a Handover
    /// Request.
    private func answer(_ bytes: [UInt8], serviceParameter: ServiceParameterRecord, selector: HandoverSelector) async throws(NFCError) -> [UInt8] {
        let message = try NDEFMessage.parse(bytes, what: "the message written")
        if let first = message.records.first, first.isType(.wellKnown, ServiceSelectRecord.type) {
            guard message.records.count == 1 else {
                throw NFCError(.protocolViolation, "a Service Select message of \(message.records.count) records")
            }
            let select = try ServiceSelectRecord(payload: first.payload)
            guard select.serviceName == serviceParameter.serviceName else {
                throw NFCError(.protocolViolation, "a Service Select for another service")
            }
            exchange = .handoverRequest
            return NDEFMessage(records: [TNEPStatusRecord(status: TNEPStatusRecord.success).record]).bytes
        }
        guard exchange == .handoverRequest else {
            throw NFCError(.protocolViolation, "a message written before the service was selected, or after the handover")
        }
        let request = try HandoverRequestMessage(bytes: bytes)
        let select: HandoverSelectMessage
        do {
            select = try await selector(request)
        } catch {
            throw NFCError(.invalidHandover, "the holder made no Handover Select message: \(error)")
        }
        guard 2 + select.bytes.count <= Self.maximumNDEFFileSize else {
            throw NFCError(.limitExceeded, "a Handover Select message of \(select.bytes.count) bytes")
        }
        exchange = .complete
        handover = select.handover(request: request)
        return select.bytes
    }
}
