import MdocBLE
import MdocCBOR
import MdocModel
import MdocSession
import MdocTerminal

/// Runs the reader's side of a live session: the link in the chosen BLE mode, then the
/// ``ReaderSession`` state machine until the response arrives, then termination (ISO/IEC 18013-5
/// 9.1.1.4: SessionData status 20, and BLE State 0x02, 8.3.3.1.1.5).
struct ReaderExchange {
    /// How the reader ends the session once it has the response (`--termination`).
    enum Termination: String, CaseIterable {
        /// SessionData with status 20 (9.1.1.4), then BLE State 0x02.
        case status
        /// Only the transport-specific termination, BLE State 0x02 (8.3.3.1.1.5).
        case state
        /// Nothing: wait for the mdoc to end the session.
        case wait
    }

    let transport: TransportSpec
    let timeout: Duration
    let termination: Termination
    var progress = ProgressReporter.standardError(label: "mdoc-reader")

    init(transport: TransportSpec, timeout: Duration, termination: Termination) {
        self.transport = transport
        self.timeout = timeout
        self.termination = termination
    }

    /// Connects, sends the request, and returns the verified response; the session is ended
    /// before returning.
    mutating func run(
        _ session: inout ReaderSession, options: BleOptions, mode: MdocBLEMode
    ) async throws(ProgramFailure) -> (VerificationReport, DeviceResponse) {
        let ident: [UInt8]
        do {
            ident = try BLEIdent.compute(eDeviceKeyBytes: session.deviceEngagement.value.security.eDeviceKeyBytes)
        } catch {
            throw ProgramFailure(.malformedInput, "cannot derive the BLE Ident from the engagement: \(error)")
        }
        let uuid = (mode == .peripheralServer ? options.peripheralServerModeUUID : options.centralClientModeUUID)
        progress.report(.connecting("the mdoc's service \(uuid.map { "\($0)" } ?? "?") in \(mode.rawValue) mode over \(transport)"))
        let link: any MdocTransport
        do {
            link = try await SessionLink.reader(over: transport, options: options, mode: mode, ident: ident, timeout: timeout)
        } catch {
            throw ProgramFailure(.sessionFailed, "\(error)")
        }
        defer { link.close() }
        var reportedConnection = false

        var action: ReaderAction
        do {
            action = try session.start()
        } catch {
            throw ProgramFailure(.sessionFailed, "cannot build the request: \(error)")
        }
        var result: (VerificationReport, DeviceResponse)? = nil
        while true {
            switch action {
            case .send(let bytes):
                try await send(bytes, on: link)
                if !reportedConnection {
                    // After the first send the GATT client has exchanged MTUs in either mode.
                    progress.report(.connected(mtu: await link.mtu))
                    reportedConnection = true
                }
                progress.report(.requestSent(bytes: bytes.count))
            case .received(let report, let response):
                progress.report(.verifying)
                result = (report, response)
                switch termination {
                case .status:
                    action = session.terminate()
                    continue
                case .state:
                    await link.end()
                    return try finish(session.transportEnded(), result)
                case .wait:
                    break
                }
            case .sendAndFinish(let bytes, let outcome):
                try? await send(bytes, on: link)
                await link.end()
                return try finish(.finished(outcome), result)
            case .finished(let outcome):
                await link.end()
                return try finish(.finished(outcome), result)
            }
            let event: MdocTransportEvent
            do {
                event = try await SessionLink.receive(
                    from: link, within: timeout, awaiting: result == nil ? "response from the mdoc" : "end of the session")
            } catch {
                // With the response in hand, an mdoc that never ends the session is not a failure.
                guard result != nil else {
                    throw ProgramFailure(.sessionFailed, "\(error)")
                }
                ProgramFailure.writeError("mdoc-reader: \(error); ending the session\n")
                await link.end()
                return try finish(session.transportEnded(), result)
            }
            switch event {
            case .message(let bytes):
                progress.report(.received(bytes: bytes.count))
                action = session.receive(bytes)
            case .ended, .disconnected:
                action = session.transportEnded()
            }
        }
    }

    private func send(_ bytes: [UInt8], on link: any MdocTransport) async throws(ProgramFailure) {
        do {
            try await SessionLink.send(bytes, on: link, within: timeout, sending: "the message to the mdoc")
        } catch {
            throw ProgramFailure(.sessionFailed, "\(error)")
        }
    }

    /// The response, when one arrived; otherwise the failure the outcome names.
    private mutating func finish(
        _ action: ReaderAction, _ result: (VerificationReport, DeviceResponse)?
    ) throws(ProgramFailure) -> (VerificationReport, DeviceResponse) {
        progress.finish()
        let outcome: SessionOutcome
        switch action {
        case .finished(let ended), .sendAndFinish(_, let ended):
            outcome = ended
        case .send, .received:
            outcome = .transportEnded
        }
        ProgramFailure.writeError("mdoc-reader: \(outcome)\n")
        if let result {
            return result
        }
        throw ProgramFailure(.sessionFailed, outcome.isNormalEnd ? "the session ended without a response: \(outcome)" : "\(outcome)")
    }
}
