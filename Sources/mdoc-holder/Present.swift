import ArgumentParser
import Logging
import MdocBLE
import MdocCBOR
import MdocCapture
import MdocCommandLine
import MdocCrypto
import MdocFiles
import MdocInspection
import MdocModel
import MdocNFC
import MdocPresentation
import MdocQR
import MdocRadios
import MdocSession
import MdocStores
import MdocTerminal
import MdocText

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
            allows it and a signature otherwise (--device-auth signature: a signature always, \
            ISO/IEC 18013-5 9.1.3.4). A question nobody answers within --consent-timeout \
            (\(Int(ConsentTimeout.defaultSeconds)) s) ends the session as a cancelled one: status 20, nothing sent. The ephemeral key is on P-256 unless --edevice-curve names \
            another curve of 9.1.5.2; the reader's EReaderKey follows it, and a DeviceMac needs \
            the device key on that curve too (9.1.3.5), so with the P-256 demo credential \
            --edevice-curve p384 makes the response carry a DeviceSignature.

            Without --credential the holder presents every credential of its store \
            (~/.local/share/swift-mdoc/credentials, see `mdoc-holder import`); --credential \
            takes files, or names of stored credentials. Without --trust-readers it trusts the \
            reader roots of MDOC_TRUST_READERS (paths separated by ':'), else of \
            ~/.config/swift-mdoc/trust/readers when that folder exists.

            Examples:
              mdoc-holder present --credential Certs/demo/mdl.mdoc --yes
              mdoc-holder present --credential Certs/demo/mdl.mdoc \\
                --transport hci:tcp:127.0.0.1:9001 --btsnoop holder.btsnoop \\
                --log-level debug
              mdoc-holder import Certs/demo/mdl.mdoc && mdoc-holder present --yes

            With --keep-running the holder serves reader after reader: once a session ends, \
            normally or not (no reader within --timeout included), it makes a fresh ephemeral \
            key and engagement, shows the new QR code and URI, and waits again, until it is \
            interrupted (Ctrl-C or SIGTERM), which ends it with status 0. After a failed \
            session the next starts at least a second after it began; when the radio itself is \
            gone (the controller or bluetoothd's bus connection ended) the holder ends with \
            status 8.

            --nfc vpcd[:HOST:PORT] also offers the engagement by NFC (8.2.2.1): the holder \
            becomes a card in the reader of vsmartcard's vpcd (localhost:35963 by default), \
            which pcscd shows as "Virtual PCD 00 00"; a reader through PC/SC taps it \
            (`mdoc-reader request --engagement nfc`) and the session goes on over the BLE \
            transport, with the handover in its SessionTranscript. --handover chooses static \
            handover (a Handover Select to read, the default) or negotiated handover (TNEP: the \
            reader writes a Handover Request). See docs/nfc.md.

            The QR code is drawn for a terminal with light text on a dark background; \
            --qr-style dark-on-light draws it for a light theme. When the terminal is too \
            narrow for it, it is not drawn (the URI is printed as always); --qr-compact draws \
            it at half the width, --qr-png writes it as an image.

            The credential files hold the device private key: the holder refuses one that group \
            or others may read (run chmod 600 on it; mdoc-issuer writes them so), unless its key \
            is the published key of the demo credentials in Certs/demo. A credential whose \
            device key is held by a PKCS#11 token or a TPM (`mdoc-holder import --key-in`) \
            names the key instead; the token's PIN comes from --pin-file or MDOC_TOKEN_PIN, \
            and the key is loaded, and the token logged in to, before the engagement is shown. \
            A device key sealed with a passphrase (`mdoc-holder key seal`) is opened with the \
            passphrase from --passphrase-file or MDOC_KEY_PASSPHRASE, also before the \
            engagement; a key kept in the clear gets a warning saying how to seal it, unless it \
            is test material (the demo credentials, or a credential marked testMaterial). \
            --unlock-each-session asks for that PIN or passphrase before each session instead, \
            on standard input with the terminal's echo off, and releases the key when the \
            session ends (the token logged out), so that every presentation needs the person \
            who knows it; a wrong one fails that session (status 7 without --keep-running) and \
            counts against the token's or TPM's own retry limit.

            --save-session DIR keeps the session for offline study: the engagement, \
            SessionTranscriptBytes, every message as it went over the link and what it \
            decrypts to, an index.json, and the session's ephemeral device key (mode 0600; with \
            it the capture decrypts the session). DIR must not exist or be empty; it is checked \
            before the engagement is shown, and written however the session ends: when no \
            reader started one, it holds the engagement, the times and what the link saw. One \
            session is captured: not with --keep-running. \
            `mdoc inspect DIR` shows the messages (docs/session-capture.md).

            --response-override FILE is for test material only: each session sends the \
            DeviceResponse in FILE (binary CBOR, hex, base64url, diagnostic notation or the JSON \
            of `mdoc inspect --json`, detected as `mdoc encode` does) in place of the one the \
            holder builds, encrypted in the session as usual, byte for byte as given, whether \
            or not it is a valid DeviceResponse, so that a reader under test can be shown a \
            crafted answer. No consent is asked and nothing of the credentials is disclosed: \
            the request is answered as if every element were refused, and that answer is \
            replaced. A warning on standard error says so for each session, and the options \
            that decide consent (--yes, --policy) are refused with it \
            (docs/crafted-sessions.md).

            With --json standard output carries JSON only, one object per line: the engagement \
            of each session, then how the session ended (docs/json-report.md); the QR code, the \
            request and the consent prompt go to standard error.

            Exit codes: 0 the session ended normally (with --keep-running: interrupted); 7 \
            unusable --credential, --trust-readers, --policy or --response-override file, a credential others can \
            read, a device key whose token or TPM is absent, refuses the PIN or is locked out, a sealed device key without its passphrase or with a wrong one, or a --qr-png file or --save-session directory that cannot be written; 8 the transport could not be \
            opened, no reader within --timeout, the link was lost before the response was \
            delivered, nobody answered the consent prompt within --consent-timeout (the \
            session is ended with status 20), or the session failed (status 10 or 11); 64 usage error (no credential \
            given or stored included); 130 interrupted by Ctrl-C (SIGINT); 143 ended by \
            SIGTERM (both without --keep-running: a session under way is ended with status 20 \
            first, then the transport is closed).
            """
    )

    @Option(name: .customLong("credential"), parsing: .upToNextOption,
            help: ArgumentHelp(
                "Credential files made by `mdoc-issuer issue`, or names of stored credentials (default: every stored credential).",
                valueName: "file-or-name"),
            completion: CredentialCompletion.namesAndFiles)
    var credentials: [String] = []

    @OptionGroup var live: LiveTransportOptions

    @Option(name: .customLong("ble-mode"),
            help: "Which 18013-5 BLE modes to offer: peripheral (we are the GATT server), central (the reader is), or both.")
    var bleMode: BLEModeChoice = .both

    @Option(name: .customLong("nfc"),
            help: ArgumentHelp("Also offer the engagement by NFC, as a card in the reader of vsmartcard's vpcd (default localhost:35963).",
                               valueName: "vpcd[:host:port]"))
    var nfc: VirtualCardOffer?

    @Option(help: "How the NFC card offers the engagement: static (a Handover Select to read) or negotiated (TNEP).")
    var handover: NFCHandoverMode = .staticHandover

    @OptionGroup var decision: ReaderTrustAndConsentOptions

    @Option(help: "Seconds to wait for a reader, and for each message of the session.")
    var timeout: Double = 120

    @Option(name: .customLong("consent-timeout"),
            help: "Seconds the consent prompt waits for an answer; then the session is ended (status 20) and nothing is sent.")
    var consentTimeout: Double = ConsentTimeout.defaultSeconds

    @Option(name: .customLong("qr-png"), help: "Also write the engagement QR code to this PNG file.",
            completion: .file(extensions: ["png"]))
    var qrPNG: String?

    @Flag(name: .customLong("no-qr"), help: "Print only the mdoc: URI, not the QR code.")
    var noQR = false

    @Option(name: .customLong("qr-style"),
            help: "light-on-dark (for a dark terminal theme, the default) or dark-on-light (for a light one).")
    var qrStyle: QRTerminalStyle = .lightOnDark

    @Flag(name: .customLong("qr-compact"), help: "Draw the QR code at half the width and height (quadrant blocks), for narrow terminals.")
    var qrCompact = false

    @Flag(help: "Print the engagement and each session's outcome as JSON lines on standard output.")
    var json = false

    @Flag(name: .customLong("keep-running"),
          help: "After each session, normal or not, show a fresh engagement and wait for the next reader, until interrupted.")
    var keepRunning = false

    @Flag(name: .customLong("terminate-after-response"),
          help: "End the session (status 20 and BLE State end) as soon as the response is delivered.")
    var terminateAfterResponse = false

    @Option(name: .customLong("save-session"),
            help: "Capture the session into this directory (new or empty): messages, transcript, ephemeral key.",
            completion: .directory)
    var saveSession: String?

    @Option(name: .customLong("device-auth"),
            help: "How the response is device-authenticated: mac (DeviceMac when the reader's key allows it, else a signature) or signature.")
    var deviceAuthentication: DeviceAuthenticationChoice = .mac

    @Option(name: .customLong("edevice-curve"),
            help: "The curve of the session's ephemeral key EDeviceKey, which the reader's EReaderKey follows; DeviceMac needs the device key on it, else the response is signed.")
    var eDeviceCurve: EphemeralCurveChoice = .p256

    @Flag(name: .customLong("unlock-each-session"),
          help: "Before each session, read the PIN of the token or TPM key (or the sealed key's passphrase) from standard input, the terminal's echo off, and lock the key again when the session ends.")
    var unlockEachSession = false

    @Option(name: .customLong("response-override"),
            help: "Test material only: send the DeviceResponse in this file (CBOR, hex, diagnostic notation or lossless JSON) in place of the one built; no consent is asked, nothing is disclosed.",
            completion: .file())
    var responseOverride: String?

    @OptionGroup var token: TokenPINOptions

    @OptionGroup var keyPassphrase: KeyPassphraseOptions

    func validate() throws {
        if saveSession != nil && keepRunning {
            throw ValidationError("--save-session captures one session; leave out --keep-running")
        }
        if unlockEachSession && (token.pinFile != nil || keyPassphrase.passphraseFile != nil) {
            throw ValidationError("--unlock-each-session asks for the PIN or passphrase before each session; leave out --pin-file and --passphrase-file")
        }
        if responseOverride == "-" && unlockEachSession {
            throw ValidationError("--unlock-each-session reads the PIN or passphrase from standard input: give --response-override a file, not -")
        }
        if responseOverride != nil && (decision.yes || decision.policy != nil) {
            throw ValidationError("--response-override sends the file's DeviceResponse and asks no consent; leave out --yes and --policy")
        }
        guard consentTimeout > 0 else {
            throw ValidationError("--consent-timeout must be more than 0 seconds")
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

    /// Where people's text goes: standard output, unless it carries JSON.
    private var humanOutput: ProgramOutput { json ? .standardError : .standardOutput }

    private func present() async throws(ProgramFailure) {
        let environment = ProcessInfo.processInfo.environment
        if let qrPNG {
            try OutputFile.checkWritable(qrPNG, option: "--qr-png")
        }
        if let saveSession {
            try SessionCapture.checkWritable(directory: saveSession, option: "--save-session")
        }
        let override = try responseOverride.map { (file) throws(ProgramFailure) in try Self.overridingResponse(file) }
        // With --unlock-each-session, the credentials are loaded before each session instead.
        let credentials = try unlockEachSession ? nil : keyPassphrase.withPassphrase { (passphrase) throws(ProgramFailure) in
            try HolderCredentials.load(self.credentials, store: .standard(environment: environment), pin: try token.pin(), passphrase: passphrase)
        }
        let anchors = try decision.readerRoots(environment: environment)
        // With --response-override nobody is asked: the request is answered as if every element
        // were refused, and that answer replaced.
        let consent = try override == nil ? decision.consentKind(output: humanOutput) : nil

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
            let started = ContinuousClock.now
            // The secret is read outside the session's failures: without one, no later session
            // can be unlocked either.
            var secret = try unlockEachSession ? unlockingSecret() : nil
            do throws(ProgramFailure) {
                // Unlocked for this session only: the keys are released when it ends.
                let unlocked: [Credential]
                if let credentials {
                    unlocked = credentials
                } else {
                    unlocked = try Self.unlock(self.credentials, with: &secret, environment: environment)
                }
                try await presentOnce(
                    credentials: unlocked, anchors: anchors, consent: consent, override: override, adapter: adapter, transport: transport)
                Interruption.count(failed: false)
            } catch {
                guard keepRunning else {
                    await adapter.close()
                    throw error
                }
                ProgramSignals.yieldToEnding()
                Interruption.count(failed: true)
                ProgramOutput.standardError.write("mdoc-holder: error: \(error.message)\n")
                // The next session starts no sooner than this after the last; a radio that is
                // gone meanwhile (its controller or bus connection ended) would fail every later
                // session at once: the program ends instead of retrying.
                if let failure = await Self.radioFailure(of: adapter, before: started + Self.failedSessionInterval) {
                    await adapter.close()
                    throw ProgramFailure(.sessionFailed, "the radio stopped working, so no further reader can be served: \(failure)")
                }
            }
            guard keepRunning else {
                await adapter.close()
                return
            }
            ProgramOutput.standardError.writeProgressLine("mdoc-holder: waiting for the next reader with a fresh engagement (--keep-running)")
        }
    }

    /// The secret of --unlock-each-session, read from standard input; the end of the input ends
    /// the holder (status 7).
    private func unlockingSecret() throws(ProgramFailure) -> [UInt8] {
        guard let secret = SessionUnlock.ask() else {
            throw ProgramFailure(.badTrustInput, "--unlock-each-session: standard input ended, so no PIN or passphrase unlocks the device keys")
        }
        return secret
    }

    /// The credentials `arguments` name, their device keys loaded with `secret` as the token's
    /// or TPM key's PIN and as the sealed key's passphrase, whichever each needs; `secret` is
    /// wiped.
    private static func unlock(_ arguments: [String], with secret: inout [UInt8]?, environment: [String: String]) throws(ProgramFailure) -> [Credential] {
        defer {
            if var bytes = secret {
                secret = nil
                SealedPrivateKey.wipe(&bytes)
            }
        }
        return try HolderCredentials.load(arguments, store: .standard(environment: environment), pin: secret, passphrase: secret)
    }

    /// With --keep-running, the least time from the start of a session that failed to the start
    /// of the next: a fault that fails sessions at once (a reader that keeps disconnecting, a
    /// radio that refuses) costs at most one attempt and one error line per second.
    static let failedSessionInterval: Duration = .seconds(1)

    /// The radio's failure if it comes before `deadline` (at once when it failed already), else
    /// `nil` at `deadline`.
    private static func radioFailure(of radio: any MdocRadio, before deadline: ContinuousClock.Instant) async -> BLEError? {
        await withTaskGroup(of: BLEError?.self) { group in
            group.addTask { await radio.failure() }
            group.addTask {
                try? await Task.sleep(until: deadline)
                return nil
            }
            defer { group.cancelAll() }
            return await group.next() ?? nil
        }
    }

    /// The DeviceResponse of `--response-override FILE` (`-`: standard input), read as its form
    /// is (``CraftedCBOR``), as `mdoc-reader request --request` reads a DeviceRequest, and kept
    /// byte for byte.
    private static func overridingResponse(_ file: String) throws(ProgramFailure) -> CraftedCBOR {
        do {
            let raw = try file == "-" ? InputSource.readAll(fd: 0, name: "standard input") : InputSource.readFile(file)
            return try CraftedCBOR(raw, name: file == "-" ? "standard input" : file)
        } catch {
            throw ProgramFailure(.badTrustInput, "--response-override \(error)")
        }
    }

    /// One session on `adapter`: a fresh ephemeral key and engagement, shown, then served to its
    /// end; with `--json`, its outcome as one line of JSON. `consent` decides what is released,
    /// unless `override` (`--response-override`) replaces every response and nothing is.
    private func presentOnce(
        credentials: [Credential], anchors: [Certificate], consent: ConsentSource.Kind?, override: CraftedCBOR?, adapter: any MdocRadio,
        transport: TransportSpec
    ) async throws(ProgramFailure) {
        let seconds = Duration.milliseconds(Int64(timeout * 1000))
        var driver: HolderDriver
        let consentLimit = ConsentTimeout(seconds: consentTimeout)
        // Made here, on --edevice-curve, so that a capture can keep it.
        let eDeviceKey: PrivateKey?
        do {
            eDeviceKey = try PrivateKey(generating: eDeviceCurve.curve)
        } catch {
            throw ProgramFailure(.sessionFailed, "cannot make the ephemeral device key: \(error)")
        }
        do {
            driver = try HolderDriver(
                credentials: credentials, bleOptions: bleMode.bleOptions, eDeviceKey: eDeviceKey,
                responseBuilder: ResponseBuilder(deviceAuthentication: deviceAuthentication.policy),
                trust: ReaderRootTrust(trustAnchors: anchors),
                consent: consent.map { ConsentSource(kind: $0, output: humanOutput, timeout: consentLimit) } ?? HolderConsent.refusingAll,
                timeouts: SessionTimeouts(connection: seconds, idle: seconds), endsAfterResponse: terminateAfterResponse,
                events: { Self.show($0, transport: transport) })
        } catch {
            throw ProgramFailure(.badTrustInput, "cannot start a session: \(error)")
        }
        if let override, let responseOverride, let eDeviceKey {
            driver.script = .replacingResponses(with: override.bytes, eDeviceKey: eDeviceKey)
            ProgramOutput.standardError.writeLine(
                "mdoc-holder: warning: test material: this session answers with the DeviceResponse of \(responseOverride) (\(override.bytes.count) bytes, from \(override.form.rawValue)) in place of the one it builds; no consent is asked and nothing of the credentials is disclosed")
        }
        try showEngagement(driver.mdocURI.description)

        let started = Date()
        let result: HolderSessionResult
        if let nfc {
            let retrieval = VirtualCardOffer.retrievalApplication()
            let tag = driver.tag(handover, retrieval: retrieval)
            let session = driver
            result = try await nfc.offering(tag, retrieval: retrieval, handover) {
                await ProgramSignals.cancellingOnSignals { await consentLimit.run { await session.run(over: adapter) } }
            }
        } else {
            let session = driver
            result = await ProgramSignals.cancellingOnSignals { await consentLimit.run { await session.run(over: adapter) } }
        }
        if let saveSession, let eDeviceKey {
            try capture(result, of: driver, key: eDeviceKey, started: started, transport: transport,
                        consentExpired: consentLimit.expired, into: saveSession)
        }
        switch result.end {
        case .link(let error):
            let failure = ProgramFailure(.sessionFailed, "\(error)")
            if json {
                ProgramOutput.standardOutput.writeLine(TerminalText(lines: HolderJSON.session(
                    failure: failure, disclosures: result.disclosures).serialized()))
            }
            throw failure
        case .session(let outcome):
            // Ended by the holder, but only because nobody answered: a session that did not complete.
            if consentLimit.expired {
                let failure = ProgramFailure(.sessionFailed, "\(consentLimit.explanation)")
                if json {
                    ProgramOutput.standardOutput.writeLine(TerminalText(lines: HolderJSON.session(
                        failure: failure, disclosures: result.disclosures).serialized()))
                }
                throw failure
            }
            if json {
                ProgramOutput.standardOutput.writeLine(TerminalText(lines: HolderJSON.session(
                    outcome, disclosures: result.disclosures).serialized()))
            }
            guard outcome.isNormalEnd else {
                throw ProgramFailure(.sessionFailed, "\(outcome)")
            }
            ProgramOutput.standardError.write("mdoc-holder: \(outcome)\n")
        }
    }

    /// Writes the capture of `result` into `directory` (`--save-session`), however the session
    /// ended. Without a transcript from the session (its SessionEstablishment did not establish
    /// one), the transcript is built from the engagement and the EReaderKeyBytes received, as the
    /// session builds it (ISO/IEC 18013-5 9.1.5.1); when no SessionEstablishment arrived (no
    /// reader came, or none started the session), the capture has no transcript: the
    /// engagement, the key, the times and the outcome, which says what the link saw.
    private func capture(
        _ result: HolderSessionResult, of driver: HolderDriver, key: PrivateKey, started: Date, transport: TransportSpec,
        consentExpired: Bool, into directory: String
    ) throws(ProgramFailure) {
        let outcome: String
        var exitStatus = ExitStatus.sessionFailed
        switch result.end {
        case .link(let error):
            outcome = "\(error)"
        case .session(let ended):
            outcome = "\(ended)"
            if ended.isNormalEnd && !consentExpired { exitStatus = .success }
        }
        var transcript = result.sessionTranscript
        if transcript == nil, let first = result.messages.first(where: { $0.direction == .received }),
           let establishment = try? SessionEstablishment(encoded: first.bytes) {
            transcript = SessionTranscriptBinding(SessionTranscript(
                deviceEngagementBytes: driver.deviceEngagement, eReaderKeyBytes: establishment.eReaderKey, handover: .qr))
        }
        let capture = SessionCapture(
            role: .mdoc, program: "mdoc-holder \(ToolVersion.current)", transport: "\(transport)", mode: result.mode,
            mtu: result.mtu, started: started, ended: Date(), deviceEngagement: Array(driver.deviceEngagement.bytes),
            engagementURI: driver.mdocURI.description, sessionTranscriptBytes: transcript?.taggedBytes, ephemeralKey: key,
            messages: result.messages, outcome: outcome, exitStatus: exitStatus.rawValue, verificationTime: nil, report: nil)
        try capture.save(in: directory)
        guard transcript != nil else {
            ProgramOutput.standardError.writeLine(
                "mdoc-holder: the session is captured in \(directory), without a transcript: no SessionEstablishment was taken")
            return
        }
        ProgramOutput.standardError.writeLine(
            "mdoc-holder: the session is captured in \(directory); its \(SessionCapture.ephemeralKeyFileName) decrypts every message of this session: keep it private")
    }

    /// What the holder says on standard error as the session goes: progress lines (left out
    /// with `--quiet`), and why a session ends before its response.
    private static func show(_ event: HolderEvent, transport: TransportSpec) {
        let line: TerminalText
        switch event {
        case .waiting(let modes):
            let names = modes.map { $0 == .peripheralServer ? "peripheral server mode" : "central client mode" }
            ProgramOutput.standardError.writeProgressLine(
                "mdoc-holder: waiting for a reader (\(names.joined(separator: " and ")), transport \(transport))")
            return
        case .connected(let mode?):
            ProgramOutput.standardError.writeProgressLine(
                "mdoc-holder: reader connected in mdoc \(mode == .peripheralServer ? "peripheral server" : "central client") mode")
            return
        case .connected(nil):
            ProgramOutput.standardError.writeProgressLine("mdoc-holder: reader connected over NFC (data retrieval through the card)")
            return
        case .requested, .sending:
            return
        case .decided(_, let released):
            ProgramOutput.standardError.writeProgressLine(
                released.isEmpty ? "mdoc-holder: sending no elements" : "mdoc-holder: sending \(TerminalText(count: released.count, "approved element"))")
            return
        case .readerLeftDuringConsent(let outcome):
            // The prompt's question stays on its line without an answer: start a new one.
            ProgramOutput.standardError.write("\n")
            line = outcome == .terminatedByReader
                ? "the reader ended the session before you decided; nothing was sent"
                : "the reader left before you decided; nothing was sent"
        case .readerWentQuiet(let error):
            line = "\(error); ending the session"
        }
        ProgramOutput.standardError.writeLine("mdoc-holder: \(line)")
    }

    /// Draws the QR code (unless `--no-qr`, or the terminal is too narrow for it), prints the
    /// URI (or, with `--json`, the engagement object), and writes `--qr-png`.
    private func showEngagement(_ uri: String) throws(ProgramFailure) {
        let code: QRCode
        do {
            code = try QRCode(text: uri)
        } catch {
            throw ProgramFailure(.sessionFailed, "cannot make the engagement QR code: \(error)")
        }
        if !noQR {
            EngagementDrawing(code: code, style: qrStyle, scale: qrCompact ? .compact : .full)
                .show(on: humanOutput, environment: ProcessInfo.processInfo.environment)
        }
        if let qrPNG {
            let png: [UInt8]
            do {
                png = try code.pngData()
            } catch {
                throw ProgramFailure(.sessionFailed, "cannot draw the engagement QR code: \(error)")
            }
            try OutputFile.create(png, at: qrPNG, mode: OutputFile.publicMode, replacing: true)
        }
        if json {
            ProgramOutput.standardOutput.writeLine(TerminalText(lines: HolderJSON.engagement(uri).serialized()))
        } else {
            ProgramOutput.standardOutput.writeLine(TerminalText(lines: uri))
        }
    }
}

extension QRTerminalStyle: ExpressibleByArgument {}
