import ArgumentParser
import MdocBLE
import MdocCBOR
import MdocCrypto
import MdocModel
import MdocSession
import MdocTerminal

import Foundation

/// `mdoc-holder present`: one presentation (or several, with `--keep-running`) over a BLE bearer.
struct Present: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show an engagement QR code and present documents to the reader that scans it.",
        discussion: """
            Makes a fresh ephemeral key and DeviceEngagement (ISO/IEC 18013-5 8.2), draws it as \
            a QR code and prints its mdoc: URI, then waits for a reader over the 18013-5 BLE GATT \
            service. Each request is shown with the reader's identity (verified against \
            --trust-readers, untrusted, or anonymous), the documents and elements asked for and \
            whether the reader intends to retain them. Only the elements you approve (or your \
            --policy approves) are sent, device-authenticated with a MAC when the reader's key \
            allows it and a signature otherwise.

            Examples:
              mdoc-holder present --credential Certs/demo/mdl.mdoc --yes
              mdoc-holder present --credential Certs/demo/mdl.mdoc --transport hci:tcp:127.0.0.1:9001 \\
                --btsnoop holder.btsnoop --log-level debug

            With --keep-running the holder serves reader after reader: once a session ends, \
            normally or not (no reader within --timeout included), it makes a fresh ephemeral \
            key and engagement, shows the new QR code and URI, and waits again, until it is \
            interrupted (Ctrl-C or SIGTERM), which ends it with status 0.

            The credential files hold the device private key: the holder refuses one that group \
            or others may read (run chmod 600 on it; mdoc-issuer writes them so).

            Exit codes: 0 the session ended normally (with --keep-running: interrupted); 7 \
            unusable --credential, --trust-readers or --policy file, or a credential others can \
            read; 8 the transport could not be opened, no reader within --timeout, the link was \
            lost before the response was delivered, or the session failed (status 10 or 11); 64 \
            usage error.
            """
    )

    @Option(name: .customLong("credential"), parsing: .upToNextOption,
            help: "Credential files made by `mdoc-issuer issue` (one or more).")
    var credentials: [String] = []

    @OptionGroup var live: LiveTransportOptions

    @Option(name: .customLong("ble-mode"),
            help: "Which 18013-5 BLE modes to offer: peripheral (we are the GATT server), central (the reader is), or both.")
    var bleMode: BLEModeChoice = .both

    @Option(name: .customLong("trust-readers"), parsing: .upToNextOption,
            help: "Reader root certificates (PEM, DER or hex files, or directories, where private keys and certificates that are not self-signed roots are skipped) that make a reader trusted.")
    var trustReaders: [String] = []

    @Flag(help: "Approve every requested element this holder has, without asking.")
    var yes = false

    @Option(help: "A consent policy file (JSON, see docs/consent-policy.md) that decides instead of asking.")
    var policy: String?

    @Option(help: "Seconds to wait for a reader, and for each message of the session.")
    var timeout: Double = 120

    @Option(name: .customLong("qr-png"), help: "Also write the engagement QR code to this PNG file.")
    var qrPNG: String?

    @Flag(name: .customLong("no-qr"), help: "Print only the mdoc: URI, not the QR code.")
    var noQR = false

    @Flag(name: .customLong("keep-running"),
          help: "After each session, normal or not, show a fresh engagement and wait for the next reader, until interrupted.")
    var keepRunning = false

    @Flag(name: .customLong("terminate-after-response"),
          help: "End the session (status 20 and BLE State end) as soon as the response is delivered.")
    var terminateAfterResponse = false

    func validate() throws {
        guard !credentials.isEmpty else {
            throw ValidationError("give at least one --credential file (make one with `mdoc-issuer issue`)")
        }
        if yes && policy != nil {
            throw ValidationError("--yes and --policy both decide consent; give one of them")
        }
        guard timeout > 0 else {
            throw ValidationError("--timeout must be more than 0 seconds")
        }
    }

    func run() async throws {
        live.bootstrapLogging()
        await ProgramFailure.reporting(program: "mdoc-holder") { () async throws(ProgramFailure) in
            try await present()
        }
    }

    private func present() async throws(ProgramFailure) {
        let credentials = try loadCredentials()
        let anchors: [Certificate]
        do {
            anchors = try CertificateFiles.loadTrustAnchors(trustReaders, for: .readerAuthentication) { note in
                ProgramOutput.standardError.write("mdoc-holder: note: --trust-readers \(note)\n")
            }
        } catch {
            throw ProgramFailure(.badTrustInput, "--trust-readers \(error)")
        }
        var consent = ConsentSource.prompt
        if yes {
            consent = .approveAll
        } else if let policy {
            do {
                consent = .policy(try ConsentPolicy.load(file: policy))
            } catch {
                throw ProgramFailure(.badTrustInput, "--policy \(error)")
            }
        }

        // One adapter for every session: a transport that cannot be opened ends the program at
        // once, with or without --keep-running.
        let transport = await live.resolvedTransport()
        let adapter = try await live.openRadio()
        if keepRunning {
            Interruption.endOnSignals()
        }
        while true {
            // A signal closed the radio under the last session: its handler ends the program.
            ProgramSignals.yieldToEnding()
            do {
                try await presentOnce(credentials: credentials, anchors: anchors, consent: consent, adapter: adapter, transport: transport)
                Interruption.count(failed: false)
            } catch {
                guard keepRunning else {
                    await adapter.close()
                    throw error
                }
                ProgramSignals.yieldToEnding()
                Interruption.count(failed: true)
                ProgramOutput.standardError.write("mdoc-holder: error: \(error.message)\n")
            }
            guard keepRunning else {
                await adapter.close()
                return
            }
            ProgramOutput.standardError.write("mdoc-holder: waiting for the next reader with a fresh engagement (--keep-running)\n")
        }
    }

    /// One session on `adapter`: a fresh ephemeral key and engagement, shown, then served to its
    /// end.
    private func presentOnce(
        credentials: [Credential], anchors: [Certificate], consent: ConsentSource, adapter: any MdocRadio, transport: TransportSpec
    ) async throws(ProgramFailure) {
        let session: HolderSession
        do {
            session = try HolderSession(
                credentials: credentials, readerTrustAnchors: anchors, bleOptions: bleMode.bleOptions, now: { Date() })
        } catch {
            throw ProgramFailure(.badTrustInput, "cannot start a session: \(error)")
        }
        try showEngagement(session.mdocURI.description)

        var presentation = HolderPresentation(
            session: session, consent: consent, adapter: adapter, transport: transport,
            timeout: .milliseconds(Int64(timeout * 1000)), terminateAfterResponse: terminateAfterResponse)
        let outcome = try await presentation.run()
        guard outcome.isNormalEnd else {
            throw ProgramFailure(.sessionFailed, "\(outcome)")
        }
        ProgramOutput.standardError.write("mdoc-holder: \(outcome)\n")
    }

    /// The `--credential` files.
    private func loadCredentials() throws(ProgramFailure) -> [Credential] {
        var loaded: [Credential] = []
        for path in credentials {
            do {
                loaded.append(try Credential(encoded: try InputSource.loadPrivate(path).bytes))
            } catch let error as InputError where error.code == .insecurePermissions {
                throw ProgramFailure(.badTrustInput, "--credential \(error)")
            } catch {
                throw ProgramFailure(.badTrustInput, "--credential \(path): not a credential: \(error)")
            }
            if let notes = loaded.last?.testMaterial, !notes.isEmpty {
                ProgramOutput.standardError.writeLine(
                    "mdoc-holder: note: \(path) is TEST MATERIAL, made to fail verification: \(notes.joined(separator: "; "))")
            }
        }
        return loaded
    }

    /// Draws the QR code (unless `--no-qr`), prints the URI, and writes `--qr-png`.
    private func showEngagement(_ uri: String) throws(ProgramFailure) {
        do {
            let code = try QRCode(text: uri)
            if !noQR {
                ProgramOutput.standardOutput.write(TerminalText(lines: try code.terminalText()))
            }
            if let qrPNG {
                try Data(code.pngData()).write(to: URL(fileURLWithPath: qrPNG))
            }
        } catch {
            throw ProgramFailure(.badTrustInput, "cannot draw the engagement QR code: \(error)")
        }
        ProgramOutput.standardOutput.writeLine(TerminalText(lines: uri))
    }
}
