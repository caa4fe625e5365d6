import ArgumentParser
import MdocBLE
import MdocCBOR
import MdocCOSE
import MdocCapture
import MdocCommandLine
import MdocCrypto
import MdocFiles
import MdocInspection
import MdocModel
import MdocNFC
import MdocPresentation
import MdocQR
import MdocSession
import MdocStores
import MdocTerminal
import MdocText

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `mdoc-reader request`: a live session with an mdoc from its engagement.
struct Request: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Request documents from an mdoc over BLE and verify the response.",
        discussion: """
            ENGAGEMENT is the mdoc: URI the holder shows (ISO/IEC 18013-5 8.2.2.3), or give \
            --qr-image with a PNG or JPEG of its QR code. The reader connects in a BLE mode the \
            holder offers, sends the DeviceRequest (signed when --reader-cert and --reader-key \
            are given, 9.1.4), decrypts the response and verifies it like `verify`, bound to \
            this session's transcript. Progress goes to standard error, the result to standard \
            output.

            --engagement nfc engages by NFC tap instead (8.2.2.1): through PC/SC (pcscd), it \
            waits within --timeout for an mdoc on the reader named after the colon \
            (--engagement 'nfc:ACS ACR1252 1S CL Reader PICC 00 00'), else on the first reader \
            one comes to; reads its Handover Select (static handover) or, when it offers \
            negotiated handover, writes a Handover Request and reads the Handover Select back; \
            then connects over BLE to the service the handover names. The handover goes into \
            the SessionTranscript byte for byte (9.1.5.1). Engagement APDUs are short unless \
            the reader reports that it carries extended ones; --short-apdus keeps them short. \
            See docs/nfc.md.

            Elements: --elements names them (in the name space of each --doctype); otherwise \
            --preset chooses them: age-over-18, driving (the default) or full (every element \
            the toolkit's catalogue lists for the name space).

            --request FILE sends the DeviceRequest in FILE instead of building one: binary \
            CBOR, hex, base64url, diagnostic notation or the JSON of `mdoc inspect --json` (the \
            form is detected, as `mdoc encode` does). Its bytes are encrypted and sent exactly \
            as given, never decoded or re-encoded, even when they are no valid DeviceRequest, \
            and what the holder answers is shown as usual: a response, or the status it ended \
            the session with. It cannot be combined with the options that build a request \
            (--doctype, --namespace, --elements, --preset, --retain), nor with --reader-cert \
            and --reader-key: ReaderAuth signs the session's transcript, which a file written \
            before the session cannot hold (docs/crafted-sessions.md).

            --doctype takes a docType, or one of the short names mdl \
            (org.iso.18013.5.1.mDL), pid (eu.europa.ec.eudi.pid.1) and av (eu.europa.ec.av.1); \
            a doc type the toolkit does not know needs --namespace.

            --trust and --accept-ds-eku work as for `verify` (see `mdoc-reader verify --help`), \
            and --trust may be left out in the same way. --portrait-out is checked before \
            connecting, and written (mode 0600) only with a verified portrait.

            --save-session DIR keeps the session for offline study: the engagement, \
            SessionTranscriptBytes, every message as it went over the link and what it \
            decrypts to, the report, an index.json, and the session's ephemeral reader key \
            (mode 0600; with it the capture decrypts the session). DIR must not exist or be \
            empty, and is checked before connecting; it is written however the session ends, \
            even when no mdoc was found. `mdoc-reader verify --session DIR` \
            verifies the capture again offline, `mdoc inspect DIR` shows its messages \
            (docs/session-capture.md).

            --json prints one JSON document whatever the outcome: the verification report, or, \
            when the session ended without one, a readerSession object saying why \
            (docs/json-report.md).

            Examples:
              mdoc-reader request 'mdoc:owBjMS4w...' --trust Certs/demo/iaca.pem
              mdoc-reader request --qr-image qr.png --preset age-over-18 \\
                --trust Certs/demo/iaca.pem --reader-cert Certs/demo/reader.pem \\
                --reader-key Certs/demo/reader-key.pem
              mdoc-reader request 'mdoc:owBjMS4w...' --trust Certs/demo/iaca.pem \\
                --transport hci:tcp:127.0.0.1:9002 --btsnoop reader.btsnoop
              mdoc-reader request --engagement nfc --trust Certs/demo/iaca.pem

            Exit codes: 0 verified; 2 malformed engagement or response; 3 issuer data \
            authentication failed; 4 device authentication failed; 6 no documents returned \
            (for example, the holder refused); 7 unusable --trust, --reader-cert, --reader-key, \
            --qr-image or --request input, or a --portrait-out file or --save-session directory that \
            cannot be written; 8 the \
            transport could not be opened, no mdoc found within --timeout, the link was lost, \
            or the session failed; 64 usage error (an unknown --doctype included); 130 \
            interrupted by Ctrl-C (SIGINT); 143 ended by SIGTERM (a session under way is ended \
            with status 20 first, then the transport is closed).
            """
    )

    @Argument(help: "The mdoc: URI of the engagement (omit with --qr-image).")
    var engagement: String?

    @Option(name: .customLong("qr-image"), help: "A PNG or JPEG image of the engagement QR code.",
            completion: .file(extensions: ["png", "jpg", "jpeg"]))
    var qrImage: String?

    @Option(name: .customLong("engagement"),
            help: "nfc or nfc:READER: engage by NFC tap through PC/SC (on READER, else the first reader a card comes to), then continue over BLE.")
    var tap: NFCTap?

    @Flag(name: .customLong("short-apdus"), help: "Use short APDUs only over NFC, even where the reader carries extended ones.")
    var shortAPDUs = false

    @Option(help: "With --engagement nfc: retrieve over ble (the default) or over nfc, through the card that was tapped.")
    var retrieval: Retrieval = .ble

    @Option(name: .customLong("doctype"), parsing: .singleValue,
            help: "A document type to request; repeat for several. 'mdl', 'pid' and 'av' are short for the mDL, the EU PID and the EU age verification attestation.",
            completion: .list(DocTypeNames.completions))
    var docTypes: [String] = []

    @Option(name: .customLong("namespace"), help: "The name space of --elements for a doc type the toolkit does not know.")
    var nameSpace: String?

    @Option(help: "Data element identifiers to request, comma-separated.")
    var elements: String?

    @Option(help: "A ready-made request: age-over-18, driving or full.")
    var preset: RequestPreset?

    @Flag(help: "Tell the holder the reader intends to retain the elements (IntentToRetain).")
    var retain = false

    @Option(name: .customLong("request"),
            help: "Send the DeviceRequest in this file as it is (CBOR, hex, diagnostic notation or lossless JSON) instead of building one.",
            completion: .file())
    var requestFile: String?

    @OptionGroup var readerAuthentication: ReaderAuthenticationOptions

    @Option(name: .customLong("trust"), parsing: .upToNextOption,
            help: "Trust anchor (IACA root) certificates: PEM, DER or hex files, or directories of them (default: MDOC_TRUST, else ~/.config/swift-mdoc/trust/iaca).",
            completion: .file())
    var trust: [String] = []

    @OptionGroup var trustStore: TrustStoreChoice

    @OptionGroup var status: StatusOptions

    @OptionGroup var documentSigner: DocumentSignerOptions

    @OptionGroup var live: LiveTransportOptions

    @Option(name: .customLong("ble-mode"),
            help: "The BLE mode to use: peripheral (the mdoc is the GATT server) or central (we are); default: what the mdoc offers, peripheral first.")
    var bleMode: MdocBLEMode?

    @Option(help: "How to end the session after the response: status (SessionData status 20, then BLE State end), state (BLE State end only) or wait (let the mdoc end it).")
    var termination: ReaderTermination = .status

    @Option(help: "Seconds to wait for the mdoc, and for each message to make progress.")
    var timeout: Double = 30

    @Option(name: .customLong("consent-timeout"),
            help: "Seconds to wait for the response once the mdoc has the request: its holder reads the request and decides.")
    var consentTimeout: Double = 120

    @Flag(help: "Print the result as JSON: the verification report, or why there is none.")
    var json = false

    @Option(name: .customLong("portrait-out"), help: "Write the verified portrait element (if returned) to this file.",
            completion: .file())
    var portraitOut: String?

    @Option(name: .customLong("save-session"),
            help: "Capture the session into this directory (new or empty): messages, transcript, ephemeral key, report.",
            completion: .directory)
    var saveSession: String?

    func validate() throws {
        guard [engagement != nil, qrImage != nil, tap != nil].filter({ $0 }).count == 1 else {
            throw ValidationError("give the engagement as an mdoc: URI, with --qr-image or with --engagement nfc: one of them")
        }
        guard retrieval == .ble || tap != nil else {
            throw ValidationError("--retrieval nfc goes through the card that was tapped: give --engagement nfc")
        }
        if requestFile != nil {
            let building = [
                ("--doctype", !docTypes.isEmpty), ("--namespace", nameSpace != nil), ("--elements", elements != nil),
                ("--preset", preset != nil), ("--retain", retain), ("--reader-cert", readerAuthentication.readerCert != nil),
                ("--reader-key", readerAuthentication.readerKey != nil),
            ].filter(\.1).map(\.0)
            if let first = building.first {
                throw ValidationError(
                    first.hasPrefix("--reader")
                        ? "--request sends its DeviceRequest as it is, and \(first) would sign a DocRequest of it with this session's transcript: give one of them"
                        : "--request sends its DeviceRequest as it is, and \(first) builds one: give one of them")
            }
        }
        if elements != nil && preset != nil {
            throw ValidationError("--elements and --preset both choose elements; give one of them")
        }
        guard timeout > 0 else {
            throw ValidationError("--timeout must be more than 0 seconds")
        }
        guard consentTimeout > 0 else {
            throw ValidationError("--consent-timeout must be more than 0 seconds")
        }
        if requestFile == nil {
            _ = try requestBuilder.specs()
        }
    }

    /// The DocRequests of `--doctype`, `--namespace`, `--elements`, `--preset` and `--retain`.
    private var requestBuilder: RequestBuilder {
        RequestBuilder(docTypes: docTypes, nameSpace: nameSpace, elements: elements, preset: preset, intentToRetain: retain)
    }

    func run() async throws {
        let policy = try documentSigner.policy()
        live.bootstrapLogging()
        await ProgramFailure.reporting(program: "mdoc-reader") { () async throws(ProgramFailure) in
            let verified: (report: VerificationReport, trustEntries: [Certificate: TrustEntry])
            do throws(ProgramFailure) {
                verified = try await request(policy: policy)
            } catch {
                if json {
                    ProgramOutput.standardOutput.writeLine(TerminalText(lines: Self.json(error).serialized(pretty: true)))
                }
                throw error
            }
            VerificationExit.show(verified.report, json: json, trustEntries: verified.trustEntries)
            try VerificationExit.check(verified.report)
        }
    }

    /// With `--json`, what a session without a report to show prints in its place, so that
    /// standard output always holds one JSON document (docs/json-report.md, `readerSession`).
    private static func json(_ failure: ProgramFailure) -> JSONValue {
        JSONReport.object(.readerSession, [
            ("outcome", .string("failed")), ("description", .string(failure.message.description)),
            ("exitStatus", .int(Int64(failure.status.rawValue))),
        ])
    }

    /// The session with the mdoc of the engagement, the BLE options to find it with, and the
    /// ephemeral key a capture keeps. Everything of our own is checked first, so that a mistake
    /// there is not blamed on the engagement and nothing is lost after a session: the request,
    /// reader authentication, trust, the output files.
    private func makeSession(
        policy: DocumentSignerPolicy, within bound: Duration
    ) async throws(ProgramFailure) -> (
        session: ReaderSession, bleOptions: BleOptions?, tapped: NFCTap.Tapped?, eReaderKey: PrivateKey?, trustEntries: [Certificate: TrustEntry]
    ) {
        let request = try firstRequest()
        let authentication = try readerAuthentication.load()
        let issuers = try ReaderTrust.issuers(trust, store: trustStore, policy: policy, at: Date(), command: "request")
        if let portraitOut {
            try OutputFile.checkWritable(portraitOut, option: "--portrait-out")
        }
        if let saveSession {
            try SessionCapture.checkWritable(directory: saveSession, option: "--save-session")
        }
        let (deviceEngagement, handover, bleOptions, tapped) = try await engagementSource(within: bound)
        let eReaderKey: PrivateKey?
        let session: ReaderSession
        do throws(ProgramFailure) {
            eReaderKey = try saveSession == nil ? nil : ephemeralKey(for: deviceEngagement)
        } catch {
            await tapped?.close()
            throw error
        }
        do {
            // Whole seconds, the precision of the report's time, so that a replay of a capture
            // at the report's time verifies at the same instant.
            let now: @Sendable () -> Date = { Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)) }
            switch request {
            case .built(let specs):
                session = try ReaderSession(
                    engagement: deviceEngagement, handover: handover, request: specs, readerAuthentication: authentication,
                    trustAnchors: issuers.anchors, documentSignerPolicy: issuers.policy, eReaderKey: eReaderKey, now: now)
            case .given(let bytes):
                session = try ReaderSession(
                    engagement: deviceEngagement, handover: handover, deviceRequest: bytes,
                    trustAnchors: issuers.anchors, documentSignerPolicy: issuers.policy, eReaderKey: eReaderKey, now: now)
            }
        } catch {
            await tapped?.close()
            throw ProgramFailure(.malformedInput, "cannot start a session with this engagement: \(error)")
        }
        guard retrieval == .nfc || bleOptions != nil else {
            await tapped?.close()
            throw ProgramFailure(.malformedInput, "the engagement offers no BLE retrieval method")
        }
        return (session, bleOptions, tapped, eReaderKey, issuers.entries)
    }

    /// The first DeviceRequest: the DocRequests of the options, or the bytes of `--request`.
    private enum FirstRequest {
        case built([DocRequestSpec])
        case given([UInt8])
    }

    /// The DocRequests the options build, or the DeviceRequest of `--request`, read as its form
    /// is (``CraftedCBOR``) and kept byte for byte.
    private func firstRequest() throws(ProgramFailure) -> FirstRequest {
        guard let requestFile else {
            do {
                return .built(try requestBuilder.specs())
            } catch {
                throw ProgramFailure(.usage, "\(error.message)", hint: "see 'mdoc-reader request --help'")
            }
        }
        do {
            let raw = try requestFile == "-" ? InputSource.readAll(fd: 0, name: "standard input") : InputSource.readFile(requestFile)
            let crafted = try CraftedCBOR(raw, name: requestFile == "-" ? "standard input" : requestFile)
            ProgramOutput.standardError.writeProgressLine(
                "mdoc-reader: sending the DeviceRequest of \(requestFile) as given: \(crafted.bytes.count) bytes, from \(crafted.form.rawValue)")
            return .given(crafted.bytes)
        } catch {
            throw ProgramFailure(.badTrustInput, "--request \(error)")
        }
    }

    /// The DeviceEngagement, the handover of the SessionTranscript and the BLE options: of the
    /// mdoc: URI or QR code (9.1.5.1: handover `null`), or of an NFC tap within `bound` (the
    /// Handover Select, and Request for negotiated handover; the options of its carriers).
    private func engagementSource(
        within bound: Duration
    ) async throws(ProgramFailure) -> (EmbeddedCBOR<DeviceEngagement>, Handover, BleOptions?, NFCTap.Tapped?) {
        guard let tap else {
            let uri = try engagementURI()
            return (uri.deviceEngagementBytes, .qr, uri.deviceEngagementBytes.value.bleOptions, nil)
        }
        let request = MdocPresentation.MdocReader.handoverRequest(
            modes: bleMode.map { [$0] } ?? MdocBLEMode.allCases, nfcRetrieval: retrieval == .nfc)
        let tapped = try await tap.engage(
            handoverRequest: request, within: bound, shortAPDUs: shortAPDUs, recorder: saveSession == nil ? nil : TracingChannel.Recorder())
        let engagement = tapped.engagement
        let deviceEngagement: EmbeddedCBOR<DeviceEngagement>
        do {
            deviceEngagement = try EmbeddedCBOR<DeviceEngagement>(bytes: engagement.deviceEngagement)
        } catch {
            await tapped.close()
            throw ProgramFailure(.malformedInput, "the Handover Select's DeviceEngagement record holds no DeviceEngagement: \(error)")
        }
        do {
            return (deviceEngagement, engagement.handover, try engagement.bleOptions() ?? deviceEngagement.value.bleOptions, tapped)
        } catch {
            await tapped.close()
            throw ProgramFailure(.malformedInput, "the Handover Select's BLE carrier record: \(error)")
        }
    }

    /// Runs the session over the radio, keeps its capture when asked, and returns the report
    /// with the trust store's entries for its anchors.
    private func request(
        policy: DocumentSignerPolicy
    ) async throws(ProgramFailure) -> (report: VerificationReport, trustEntries: [Certificate: TrustEntry]) {
        let seconds = Duration.milliseconds(Int64(timeout * 1000))
        let (session, bleOptions, tapped, eReaderKey, trustEntries) = try await makeSession(policy: policy, within: seconds)
        let transport = await live.resolvedTransport()
        let progress = ReaderProgress(transport: transport, overNFC: retrieval == .nfc)
        let driver = ReaderDriver(
            session: session, bleOptions: bleOptions,
            timeouts: SessionTimeouts(connection: seconds, idle: seconds, response: .milliseconds(Int64(consentTimeout * 1000))),
            termination: termination, events: progress.show)
        let started = Date()
        let result: ReaderSessionResult
        if let tapped, retrieval == .nfc {
            let retrieved: Result<ReaderSessionResult, ProgramFailure>
            do throws(ProgramFailure) {
                retrieved = .success(try await retrieve(with: driver, through: tapped))
            } catch {
                retrieved = .failure(error)
            }
            await tapped.close()
            result = try retrieved.get()
        } else {
            await tapped?.close()
            let mode: MdocBLEMode
            do {
                mode = try driver.mode(preferring: bleMode)
            } catch {
                throw ProgramFailure(.sessionFailed, "\(error)")
            }
            let adapter = try await live.openRadio()
            result = await ProgramSignals.cancellingOnSignals { await driver.run(over: adapter, mode: mode) }
            await adapter.close()
        }
        progress.finish()
        let ended = Date()
        let (failure, outcomeText) = Self.failure(of: ReaderVerdict(result))
        if let saveSession, let eReaderKey {
            var capture = SessionCapture(
                role: .reader, program: "mdoc-reader \(ToolVersion.current)",
                transport: retrieval == .nfc ? "nfc:\(tapped?.reader ?? "")" : "\(transport)", mode: result.mode,
                mtu: result.mtu, started: started, ended: ended, deviceEngagement: Array(session.deviceEngagement.bytes),
                engagementURI: "\(MdocURI(deviceEngagementBytes: session.deviceEngagement))", sessionTranscriptBytes: session.sessionTranscript.taggedBytes, ephemeralKey: eReaderKey,
                messages: result.messages, outcome: outcomeText, exitStatus: failure?.status.rawValue ?? 0,
                verificationTime: result.report?.time, report: result.report.map { ReportRenderer.json($0, trustEntries: trustEntries) })
            capture.apduTrace = await tapped?.recorder?.trace
            try capture.save(in: saveSession)
            ProgramOutput.standardError.writeLine(
                "mdoc-reader: the session is captured in \(saveSession); its \(SessionCapture.ephemeralKeyFileName) decrypts every message of this session: keep it private")
        }
        guard var report = result.report else {
            throw failure ?? ProgramFailure(.sessionFailed, "the session ended without a response: \(outcomeText)")
        }
        if let response = result.response {
            report = await StatusCheck.check(response, report: report, verifier: session.responseVerifier, options: status)
        }

        if let portraitOut {
            try writePortrait(report, to: portraitOut)
        }
        return (report, trustEntries)
    }

    /// Runs the session over NFC data retrieval (8.3.3.1.2) through the card that was tapped,
    /// within the limits of the Handover Select's NFC carrier record.
    private func retrieve(with driver: ReaderDriver, through tapped: NFCTap.Tapped) async throws(ProgramFailure) -> ReaderSessionResult {
        guard let offered = tapped.engagement.nfcCarrier else {
            throw ProgramFailure(.sessionFailed, "the mdoc's Handover Select offers no NFC data retrieval", hint: "leave out --retrieval nfc")
        }
        let reader = NFCDataTransferReader(
            channel: await tapped.retrievalChannel(shortAPDUs: shortAPDUs), holderOptions: offered, shortAPDUsOnly: shortAPDUs)
        ProgramOutput.standardError.writeProgressLine(
            "mdoc-reader: retrieving over NFC on \(tapped.reader): ENVELOPEs of up to \(reader.commandChunkLength) bytes, responses of up to \(reader.responseLength)")
        return await driver.run(overNFC: reader)
    }

    /// The verdict as the failure the program ends with (nil when the response verified) and
    /// as the outcome's text for a capture; says how the session ended on standard error.
    private static func failure(of verdict: ReaderVerdict) -> (ProgramFailure?, String) {
        let end = verdict.details.end
        if case .session(let outcome) = end {
            ProgramOutput.standardError.writeLine("mdoc-reader: \(outcome)")
        }
        switch verdict {
        case .verified:
            return (nil, "\(end)")
        case .rejected(let report, _):
            return (VerificationExit.failure(for: report), "\(end)")
        case .refused(.noDocuments, let details):
            return (details.report.flatMap { VerificationExit.failure(for: $0) }, "\(end)")
        case .refused(.sessionEnded(let outcome), _):
            return (ProgramFailure(.sessionFailed, "the session ended without a response: \(outcome)"), "\(end)")
        case .failed, .linkFailed:
            return (ProgramFailure(.sessionFailed, "\(end)"), "\(end)")
        }
    }

    /// A new EReaderKey on the curve of the engagement's EDeviceKey (ISO/IEC 18013-5 9.1.1.4),
    /// made here so that a capture can keep it.
    private func ephemeralKey(for engagement: EmbeddedCBOR<DeviceEngagement>) throws(ProgramFailure) -> PrivateKey {
        do {
            let curve = try engagement.value.security.eDeviceKeyBytes.value.publicKey().curve
            return try PrivateKey(generating: curve)
        } catch {
            throw ProgramFailure(.malformedInput, "cannot start a session with this engagement: \(error)")
        }
    }

    /// The engagement from the argument or the QR image.
    private func engagementURI() throws(ProgramFailure) -> MdocURI {
        var text = engagement ?? ""
        if let qrImage {
            let texts: [String]
            do {
                texts = try QRImageDecoder.decode(file: qrImage)
            } catch {
                throw ProgramFailure(.badTrustInput, "--qr-image \(error)")
            }
            guard let found = texts.first(where: { $0.hasPrefix(MdocURI.scheme) }) else {
                throw ProgramFailure(.malformedInput, "--qr-image \(qrImage): the QR code holds no mdoc: URI")
            }
            text = found
        }
        do {
            return try MdocURI(text.trimmingSpacesAndLineBreaks)
        } catch {
            throw ProgramFailure(.malformedInput, "the engagement: \(error)")
        }
    }

    /// Writes the first verified `portrait` element to `path`. Nothing is written, not even an
    /// empty file, unless the portrait is verified: issuer and device authentication of its
    /// document both passed (ISO/IEC 18013-5 9.1.3, 9.3.1), so a cloned credential exports
    /// nothing.
    private func writePortrait(_ report: VerificationReport, to path: String) throws(ProgramFailure) {
        let portraits = report.documents.flatMap { document in
            document.elements.filter { $0.identifier == "portrait" }.map { (document, $0) }
        }
        guard let (_, portrait) = portraits.first(where: { $0.1.verified }), case .byteString(let bytes) = portrait.value else {
            if let (document, _) = portraits.first(where: { !$0.1.verified }) {
                let why: TerminalText = switch document.outcome {
                case .issuerAuthenticationFailed: "issuer data authentication failed"
                case .deviceAuthenticationFailed: "device authentication failed"
                case .deviceAuthenticationNotChecked: "device authentication was not checked"
                case .verified: "the issuer does not vouch for it"
                }
                ProgramOutput.standardError.writeLine(
                    "mdoc-reader: the portrait is not verified (document \(document.index): \(why)); --portrait-out not written")
            } else {
                ProgramOutput.standardError.writeLine("mdoc-reader: no verified portrait was returned; --portrait-out not written")
            }
            return
        }
        try OutputFile.create(Array(bytes), at: path, mode: OutputFile.privateMode, replacing: true)
    }
}
