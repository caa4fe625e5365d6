import ArgumentParser
import MdocBLE
import MdocCBOR
import MdocCrypto
import MdocModel
import MdocSession
import MdocTerminal

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

            Elements: --elements names them (in the name space of each --doctype); otherwise \
            --preset chooses them: age-over-18, driving (the default) or full (every element \
            the toolkit's catalogue lists for the name space).

            Examples:
              mdoc-reader request 'mdoc:owBjMS4w...' --trust Certs/demo/iaca.pem
              mdoc-reader request --qr-image qr.png --preset age-over-18 --trust Certs/demo/iaca.pem \\
                --reader-cert Certs/demo/reader.pem --reader-key Certs/demo/reader-key.pem
              mdoc-reader request 'mdoc:owBjMS4w...' --trust Certs/demo/iaca.pem \\
                --transport hci:tcp:127.0.0.1:9002 --btsnoop reader.btsnoop

            Exit codes: 0 verified; 2 malformed response; 3 issuer data authentication failed; \
            4 device authentication failed; 6 no documents returned (for example, the holder \
            refused); 7 unusable --trust, --reader-cert, --reader-key or --qr-image input; \
            8 the transport could not be opened, no mdoc found within --timeout, the link was \
            lost, or the session failed; 64 usage error.
            """
    )

    @Argument(help: "The mdoc: URI of the engagement (omit with --qr-image).")
    var engagement: String?

    @Option(name: .customLong("qr-image"), help: "A PNG or JPEG image of the engagement QR code.")
    var qrImage: String?

    @Option(name: .customLong("doctype"), parsing: .singleValue,
            help: "A document type to request; repeat for several. 'mdl' and 'pid' are short for the mDL and the EU PID.")
    var docTypes: [String] = []

    @Option(name: .customLong("namespace"), help: "The name space of --elements for a doc type the toolkit does not know.")
    var nameSpace: String?

    @Option(help: "Data element identifiers to request, comma-separated.")
    var elements: String?

    @Option(help: "A ready-made request: age-over-18, driving or full.")
    var preset: RequestPreset?

    @Flag(help: "Tell the holder the reader intends to retain the elements (IntentToRetain).")
    var retain = false

    @Option(name: .customLong("reader-cert"), help: "The reader authentication certificate (PEM or DER), optionally followed by its chain in the same file.")
    var readerCert: String?

    @Option(name: .customLong("reader-key"), help: "The reader authentication private key (PEM or COSE_Key).")
    var readerKey: String?

    @Option(name: .customLong("trust"), parsing: .upToNextOption,
            help: "Trust anchor (IACA) certificates: PEM, DER or hex files, or directories of them.")
    var trust: [String] = []

    @OptionGroup var live: LiveTransportOptions

    @Option(name: .customLong("ble-mode"),
            help: "The BLE mode to use: peripheral (the mdoc is the GATT server) or central (we are); default: what the mdoc offers, peripheral first.")
    var bleMode: MdocBLEMode?

    @Option(help: "How to end the session after the response: status (SessionData status 20, then BLE State end), state (BLE State end only) or wait (let the mdoc end it).")
    var termination: ReaderExchange.Termination = .status

    @Option(help: "Seconds to wait for the mdoc, and for its response.")
    var timeout: Double = 30

    @Flag(help: "Print the result as JSON.")
    var json = false

    @Option(name: .customLong("portrait-out"), help: "Write the verified portrait element (if returned) to this file.")
    var portraitOut: String?

    func validate() throws {
        guard (engagement == nil) != (qrImage == nil) else {
            throw ValidationError("give the engagement as an mdoc: URI or with --qr-image, not both and not neither")
        }
        guard !trust.isEmpty else {
            throw ValidationError("give at least one --trust certificate or directory")
        }
        guard (readerCert == nil) == (readerKey == nil) else {
            throw ValidationError("--reader-cert and --reader-key go together")
        }
        if elements != nil && preset != nil {
            throw ValidationError("--elements and --preset both choose elements; give one of them")
        }
        guard timeout > 0 else {
            throw ValidationError("--timeout must be more than 0 seconds")
        }
    }

    func run() async throws {
        live.bootstrapLogging()
        await ProgramFailure.reporting(program: "mdoc-reader") { () async throws(ProgramFailure) in
            try await request()
        }
    }

    private func request() async throws(ProgramFailure) {
        let uri = try engagementURI()
        let anchors: [Certificate]
        do {
            anchors = try CertificateFiles.load(trust)
        } catch {
            throw ProgramFailure(.badTrustInput, "--trust \(error)")
        }
        let specs = try RequestBuilder(
            docTypes: docTypes, nameSpace: nameSpace, elements: elements, preset: preset, intentToRetain: retain
        ).specs()
        var session: ReaderSession
        do {
            session = try ReaderSession(
                uri: uri, request: specs, readerAuthentication: try readerAuthentication(),
                trustAnchors: anchors, now: { Date() })
        } catch {
            throw ProgramFailure(.malformedInput, "cannot start a session with this engagement: \(error)")
        }
        guard let options = uri.deviceEngagementBytes.value.bleOptions else {
            throw ProgramFailure(.malformedInput, "the engagement offers no BLE retrieval method")
        }
        let mode: MdocBLEMode
        do {
            mode = try SessionLink.readerMode(for: options, preferring: bleMode)
        } catch {
            throw ProgramFailure(.sessionFailed, "\(error)")
        }
        let transport = await live.resolvedTransport()
        let adapter = try await live.openRadio()
        var exchange = ReaderExchange(adapter: adapter, transport: transport,
                                      timeout: .milliseconds(Int64(timeout * 1000)), termination: termination)
        let report: VerificationReport
        do {
            report = try await exchange.run(&session, options: options, mode: mode)
        } catch {
            await adapter.close()
            throw error
        }
        await adapter.close()

        if let portraitOut {
            try writePortrait(report, to: portraitOut)
        }
        VerificationExit.show(report, json: json)
        try VerificationExit.check(report)
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

    /// The `--reader-cert` chain and `--reader-key`, when given.
    private func readerAuthentication() throws(ProgramFailure) -> (key: PrivateKey, chain: [Certificate])? {
        guard let readerCert, let readerKey else { return nil }
        do {
            let chain = try CertificateFiles.load([readerCert])
            let key = try KeyFiles.loadPrivateKey(readerKey)
            return (key, chain)
        } catch {
            throw ProgramFailure(.badTrustInput, "reader authentication: \(error)")
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
                ProgramOutput.standardError.writeLine(
                    "mdoc-reader: the portrait is not verified (document \(document.index): \(document.outcome.rawValue)); --portrait-out not written")
            } else {
                ProgramOutput.standardError.writeLine("mdoc-reader: no verified portrait was returned; --portrait-out not written")
            }
            return
        }
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        } catch {
            throw ProgramFailure(.badTrustInput, "--portrait-out \(path): \(error)")
        }
    }
}
