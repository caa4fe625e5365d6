import MdocModel

/// The reader side of NFC engagement (ISO/IEC 18013-5 8.2.2.1) over an NFC Forum Type 4 Tag
/// (Type 4 Tag Technical Specification 2.0, 7): it selects the NDEF application, polling while
/// a locked phone answers `6A82`, reads the capability container and the NDEF file in READ
/// BINARY chunks within the channel's and the tag's limits, and runs static handover, or
/// negotiated handover with UPDATE BINARY (NFC Forum TNEP 1.0, Connection Handover 1.5).
///
/// It does no I/O of its own: commands go through the ``NFCCommandChannel``, waits through the
/// injected clock.
public struct NDEFTagReader: Sendable {
    /// How long the reader keeps selecting the NDEF application while the phone answers `6A82`,
    /// by default.
    public static let defaultSelectTimeout: Duration = .seconds(10)
    /// The pause between two SELECTs of the NDEF application, by default.
    public static let defaultSelectInterval: Duration = .milliseconds(250)

    private let channel: any NFCCommandChannel
    private let clock: any Clock<Duration>
    private let selectTimeout: Duration
    private let selectInterval: Duration

    /// A reader sending commands through `channel`, polling the NDEF application for
    /// `selectTimeout` every `selectInterval` on `clock`.
    public init(channel: any NFCCommandChannel, clock: any Clock<Duration> = ContinuousClock(),
                selectTimeout: Duration = defaultSelectTimeout, selectInterval: Duration = defaultSelectInterval) {
        self.channel = channel
        self.clock = clock
        self.selectTimeout = selectTimeout
        self.selectInterval = selectInterval
    }

    /// Runs NFC engagement: static handover when the tag holds a Handover Select message,
    /// negotiated handover with `handoverRequest` when it offers the Connection Handover
    /// service. Throws `invalidHandover` when the tag offers negotiated handover and
    /// no request is given, or holds something else.
    public func engage(handoverRequest: HandoverRequestMessage?) async throws(NFCError) -> NFCEngagement {
        try await selectApplication()
        let container = try await readCapabilityContainer()
        try await select(file: container.ndefFileIdentifier)
        let initial = try await readNDEFMessage(container)
        let message = try NDEFMessage.parse(initial, what: "the NDEF file")
        guard let first = message.records.first else {
            throw NFCError(.invalidHandover, "the NDEF file is empty")
        }
        if first.isType(.wellKnown, NDEFRecord.handoverSelectType) {
            return NFCEngagement(handoverSelect: try HandoverSelectMessage(bytes: initial), handoverRequest: nil)
        }
        let parameters = try message.records.filter { $0.isType(.wellKnown, ServiceParameterRecord.type) }
            .map { (record) throws(NFCError) in try ServiceParameterRecord(payload: record.payload) }
        guard let service = parameters.first(where: { $0.serviceName == ServiceParameterRecord.connectionHandoverServiceName }) else {
            throw NFCError(.invalidHandover, "the NDEF file holds neither a Handover Select message nor the Connection Handover service")
        }
        guard let handoverRequest else {
            throw NFCError(.invalidHandover, "the mdoc offers negotiated handover only, and no Handover Request message was given")
        }
        guard container.isWritable else {
            throw NFCError(.invalidHandover, "the mdoc offers negotiated handover on a read-only NDEF file")
        }
        let status = try await transact(NDEFMessage(records: [ServiceSelectRecord(serviceName: service.serviceName).record]).bytes,
                                        container, service)
        let statusMessage = try NDEFMessage.parse(status, what: "the TNEP status message")
        guard let statusRecord = statusMessage.records.first(where: { $0.isType(.wellKnown, TNEPStatusRecord.type) }) else {
            throw NFCError(.protocolViolation, "no TNEP status record after the service select")
        }
        let tnepStatus = try TNEPStatusRecord(payload: statusRecord.payload)
        guard tnepStatus.status == TNEPStatusRecord.success else {
            throw NFCError(.protocolViolation, "TNEP status \(tnepStatus.status) after the service select")
        }
        let select = try await transact(handoverRequest.bytes, container, service)
        return NFCEngagement(handoverSelect: try HandoverSelectMessage(bytes: select), handoverRequest: handoverRequest)
    }

    /// Selects the NDEF application, again every select interval while the tag answers `6A82`
    /// (a locked phone), until the select timeout has passed: then `timedOut`.
    public func selectApplication() async throws(NFCError) {
        try await selectApplication(clock: clock)
    }

    private func selectApplication<C: Clock<Duration>>(clock: C) async throws(NFCError) {
        let deadline = clock.now.advanced(by: selectTimeout)
        while true {
            let response = try await channel.transmit(.select(application: NDEFTagApplication.applicationIdentifier, expectedLength: 256))
            if response.statusWord == .success { return }
            guard response.statusWord == .fileOrApplicationNotFound else {
                throw NFCError(.unexpectedStatus, "SELECT of the NDEF application answered \(response.statusWord)")
            }
            guard clock.now < deadline else {
                throw NFCError(.timedOut, "the NDEF application stayed unavailable (6A82) for \(selectTimeout)")
            }
            do {
                try await clock.sleep(until: min(clock.now.advanced(by: selectInterval), deadline), tolerance: nil)
            } catch {
                throw NFCError(.cancelled, "cancelled while waiting to select the NDEF application again")
            }
        }
    }

    /// Selects the capability container and reads it.
    public func readCapabilityContainer() async throws(NFCError) -> CapabilityContainer {
        try await select(file: CapabilityContainer.fileIdentifier)
        let bytes = try await readBinary(offset: 0, length: CapabilityContainer.length)
        return try CapabilityContainer(bytes: bytes)
    }

    /// SELECT of an EF by identifier.
    private func select(file: UInt16) async throws(NFCError) {
        let response = try await channel.transmit(.select(file: file))
        guard response.statusWord == .success else {
            throw NFCError(.unexpectedStatus, "SELECT of file \(file) answered \(response.statusWord)")
        }
    }

    /// The chunk of one READ BINARY: within the tag's MLe and the channel's limit.
    private func readChunk(_ container: CapabilityContainer) -> Int {
        max(1, min(container.maximumResponseDataLength, channel.maximumResponseDataLength, CommandAPDU.maximumExtendedExpectedLength))
    }

    /// The chunk of one UPDATE BINARY: within the tag's MLc and the channel's limit.
    private func writeChunk(_ container: CapabilityContainer) -> Int {
        max(1, min(container.maximumCommandDataLength, channel.maximumCommandDataLength, CommandAPDU.maximumExtendedDataLength))
    }

    /// Reads the selected NDEF file's message: the length, then the message in chunks. An empty
    /// file gives an empty array.
    public func readNDEFMessage(_ container: CapabilityContainer) async throws(NFCError) -> [UInt8] {
        let header = try await readBinary(offset: 0, length: 2)
        let length = Int(header[0]) << 8 | Int(header[1])
        guard 2 + length <= container.maximumNDEFFileSize else {
            throw NFCError(.limitExceeded, "an NDEF message of \(length) bytes in a file of at most \(container.maximumNDEFFileSize)")
        }
        var message: [UInt8] = []
        message.reserveCapacity(length)
        while message.count < length {
            let offset = 2 + message.count
            guard offset <= 0x7FFF else {
                throw NFCError(.limitExceeded, "the NDEF message runs past offset 32767, which READ BINARY cannot address")
            }
            message += try await readBinary(offset: offset, length: min(readChunk(container), length - message.count))
        }
        return message
    }

    /// READ BINARY of exactly `length` bytes at `offset`: a shorter or longer answer is an error.
    private func readBinary(offset: Int, length: Int) async throws(NFCError) -> [UInt8] {
        let response = try await channel.transmit(.readBinary(offset: offset, length: length))
        guard response.statusWord == .success else {
            throw NFCError(.unexpectedStatus, "READ BINARY at \(offset) answered \(response.statusWord)")
        }
        guard response.data.count == length else {
            throw NFCError(.malformed, "READ BINARY of \(length) bytes at \(offset) returned \(response.data.count)")
        }
        return response.data
    }

    /// Writes `message` to the selected NDEF file (Type 4 Tag 2.0, 7.5.5): in one UPDATE
    /// BINARY of the length and the message when it fits, else the length zeroed, the message
    /// in chunks, then the length.
    public func writeNDEFMessage(_ message: [UInt8], _ container: CapabilityContainer) async throws(NFCError) {
        guard 2 + message.count <= min(container.maximumNDEFFileSize, NDEFTagApplication.maximumNDEFFileSize) else {
            throw NFCError(.limitExceeded, "an NDEF message of \(message.count) bytes for a file of at most \(container.maximumNDEFFileSize)")
        }
        let length: [UInt8] = [UInt8(message.count >> 8), UInt8(truncatingIfNeeded: message.count)]
        let chunk = writeChunk(container)
        if 2 + message.count <= chunk {
            try await updateBinary(offset: 0, data: length + message)
            return
        }
        try await updateBinary(offset: 0, data: [0, 0])
        var written = 0
        while written < message.count {
            let count = min(chunk, message.count - written)
            try await updateBinary(offset: 2 + written, data: Array(message[written..<written + count]))
            written += count
        }
        try await updateBinary(offset: 0, data: length)
    }

    private func updateBinary(offset: Int, data: [UInt8]) async throws(NFCError) {
        let response = try await channel.transmit(.updateBinary(offset: offset, data: data))
        guard response.statusWord == .success else {
            throw NFCError(.unexpectedStatus, "UPDATE BINARY at \(offset) answered \(response.statusWord)")
        }
    }

    /// One TNEP exchange (TNEP 1.0, 5): writes `message`, then reads the answer, waiting the
    /// service's waiting time while the file is empty, at most N_wait + 1 times.
    private func transact(_ message: [UInt8], _ container: CapabilityContainer, _ service: ServiceParameterRecord) async throws(NFCError) -> [UInt8] {
        try await writeNDEFMessage(message, container)
        // N_wait is at most 15 (ServiceParameterRecord), so at most 16 reads.
        let polls = Int(service.maximumWaitingTimeExtensions) + 1
        for _ in 0..<polls {
            let answer = try await readNDEFMessage(container)
            if !answer.isEmpty { return answer }
            do {
                try await clock.sleep(for: service.waitingTime)
            } catch {
                throw NFCError(.cancelled, "cancelled while waiting for the TNEP answer")
            }
        }
        throw NFCError(.timedOut, "the tag's NDEF file stayed empty after \(polls) reads")
    }
}
