import MdocBLE
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

    /// The radio the session runs over.
    let adapter: any MdocRadio
    /// The `--transport` it was opened from, for messages.
    let transport: TransportSpec
    let timeout: Duration
    let termination: Termination
    var progress = ProgressReporter.standardError(label: "mdoc-reader")

    init(adapter: any MdocRadio, transport: TransportSpec, timeout: Duration, termination: Termination) {
        self.adapter = adapter
        self.transport = transport
        self.timeout = timeout
        self.termination = termination
    }

    /// Connects to the mdoc whose engagement offers `options`, in `mode`, sends the request,
    /// and returns the verification of its response; the session is ended before returning.
    mutating func run(
        _ session: inout ReaderSession, options: BleOptions, mode: MdocBLEMode
    ) async throws(ProgramFailure) -> VerificationReport {
        let uuid = SessionLink.serviceUUID(of: mode, in: options)
        progress.report(.connecting("the mdoc's service \(uuid.map { "\($0)" } ?? "?") in \(mode.rawValue) mode over \(transport)"))
        let link: any MdocTransport
        do {
            link = try await SessionLink.reader(
                over: adapter, options: options, mode: mode, ident: session.bleIdent, timeout: timeout)
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
        var result: VerificationReport? = nil
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
            case .received(let report, _):
                progress.report(.verifying)
                result = report
                // A status in the SessionData that carried the response (status 20 from a holder
                // that ends the session with it) ended the session (9.1.1.4): the transport ends
                // now, State 0x02 before the link closes, whatever --termination asked.
                if session.isFinished {
                    action = session.terminate()
                    continue
                }
                switch termination {
                case .status:
                    action = session.terminate()
                    continue
                case .state:
                    await link.end()
                    return try finish(Self.outcome(of: session.transportEnded()), result)
                case .wait:
                    break
                }
            case .sendAndFinish(let bytes, let outcome):
                // A status message the mdoc can no longer take changes nothing: the session
                // ends either way, with `outcome`.
                try? await send(bytes, on: link)
                await link.end()
                return try finish(outcome, result)
            case .finished(let outcome):
                await link.end()
                return try finish(outcome, result)
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
                // The wait's end already ended the transport, State 0x02 first.
                ProgramOutput.standardError.write("mdoc-reader: \(error); ending the session\n")
                return try finish(Self.outcome(of: session.transportEnded()), result)
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

    /// How the session ended, from the action ``ReaderSession/transportEnded()`` returned.
    private static func outcome(of action: ReaderAction) -> SessionOutcome {
        switch action {
        case .finished(let outcome), .sendAndFinish(_, let outcome):
            return outcome
        case .send, .received:
            return .transportEnded
        }
    }

    /// The verification, when a response arrived; otherwise the failure the outcome names.
    private mutating func finish(
        _ outcome: SessionOutcome, _ result: VerificationReport?
    ) throws(ProgramFailure) -> VerificationReport {
        progress.finish()
        ProgramOutput.standardError.write("mdoc-reader: \(outcome)\n")
        if let result {
            return result
        }
        throw ProgramFailure(.sessionFailed, outcome.isNormalEnd ? "the session ended without a response: \(outcome)" : "\(outcome)")
    }
}
