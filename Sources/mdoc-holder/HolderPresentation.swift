import Logging
import MdocBLE
import MdocCBOR
import MdocModel
import MdocSession
import MdocTerminal

import Foundation

/// Who decides what the holder discloses (design.md rule 6).
enum ConsentSource {
    /// `--yes`: every requested element the credentials hold.
    case approveAll
    /// `--policy FILE`.
    case policy(ConsentPolicy)
    /// Ask on the terminal.
    case prompt

    /// The approved elements for `request`, after showing it on `output`.
    func decide(_ request: PresentationRequest, output: ProgramOutput) -> ElementSelection {
        switch self {
        case .approveAll:
            output.write(RequestPresentationText.render(request))
            return request.allAvailable
        case .policy(let policy):
            output.write(RequestPresentationText.render(request))
            let evaluation = policy.evaluate(request)
            for decision in evaluation.decisions {
                output.writeLine("  \(decision)")
            }
            return evaluation.selection
        case .prompt:
            return ConsentPrompt.standard(output: output).ask(request)
        }
    }
}

/// Runs one presentation: the link to the reader, then the ``HolderSession`` state machine
/// driven by what arrives, until the session ends (ISO/IEC 18013-5 9.1.1, 8.3.3.1.1.5).
struct HolderPresentation {
    var session: HolderSession
    let consent: ConsentSource
    /// Where the request and the consent dialogue are shown.
    let output: ProgramOutput
    /// The radio the session runs over.
    let adapter: any MdocRadio
    /// The `--transport` it was opened from, for messages.
    let transport: TransportSpec
    let timeout: Duration
    let terminateAfterResponse: Bool
    /// Each request of the session so far, with what was released for it.
    private(set) var disclosures: [(request: PresentationRequest, released: ElementSelection)] = []

    /// Waits for a reader in the modes the engagement offers, serves its requests and returns
    /// how the session ended.
    mutating func run() async throws(ProgramFailure) -> SessionOutcome {
        guard let options = session.deviceEngagement.value.bleOptions else {
            throw ProgramFailure(.sessionFailed, "the engagement offers no BLE retrieval method")
        }
        log("waiting for a reader (\(modeText(options)), transport \(transport))")
        Logger(label: "mdoc.ble").debug("Ident computed from EDeviceKeyBytes (HKDF \"BLEIdent\", 8.3.3.1.1.4)",
                                        metadata: ["ident": "\(session.bleIdent.map { String(format: "%02x", $0) }.joined())"])
        let link: any MdocTransport
        do {
            link = try await SessionLink.holder(over: adapter, options: options, ident: session.bleIdent, timeout: timeout)
        } catch {
            throw ProgramFailure(.sessionFailed, "\(error)")
        }
        log("reader connected in mdoc \(link.mode == .peripheralServer ? "peripheral server" : "central client") mode")
        defer { link.close() }

        while true {
            let event: MdocTransportEvent
            do {
                event = try await SessionLink.receive(from: link, within: timeout, awaiting: "message from the reader")
            } catch {
                // A reader that goes quiet after its response ends the session normally
                // (ISO/IEC 18013-5 leaves ending to either side); before it, the session failed.
                guard case .finished(let outcome) = session.transportEnded(), outcome.isNormalEnd else {
                    throw ProgramFailure(.sessionFailed, "\(error)")
                }
                log("\(error); ending the session")
                return outcome
            }
            var action: HolderAction
            switch event {
            case .message(let bytes):
                action = session.receive(bytes)
            case .ended, .disconnected:
                action = session.transportEnded()
            }
            while true {
                switch action {
                case .askConsent(let request):
                    let approved = consent.decide(request, output: output)
                    disclosures.append((request, approved))
                    let count = approved.count
                    log(count == 0 ? "sending no elements" : "sending \(TerminalText(count: count, "approved element"))")
                    action = session.decide(approved)
                    continue
                case .send(let bytes):
                    try await send(bytes, on: link)
                    if terminateAfterResponse, session.responsesSent > 0 {
                        action = session.terminate()
                        continue
                    }
                case .sendAndFinish(let bytes, let outcome):
                    // A status message the reader can no longer take changes nothing: the
                    // session ends either way, with `outcome`.
                    try? await send(bytes, on: link)
                    await link.end()
                    return outcome
                case .finished(let outcome):
                    await link.end()
                    return outcome
                }
                break
            }
        }
    }

    private func send(_ bytes: [UInt8], on link: any MdocTransport) async throws(ProgramFailure) {
        do {
            try await SessionLink.send(bytes, on: link, within: timeout, sending: "the message to the reader")
        } catch {
            throw ProgramFailure(.sessionFailed, "\(error)")
        }
    }

    private func modeText(_ options: BleOptions) -> String {
        var modes: [String] = []
        if options.peripheralServerModeSupported { modes.append("peripheral server mode") }
        if options.centralClientModeSupported { modes.append("central client mode") }
        return modes.joined(separator: " and ")
    }

    private func log(_ line: TerminalText) {
        ProgramOutput.standardError.write("mdoc-holder: \(line)\n")
    }
}
