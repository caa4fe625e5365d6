import ArgumentParser
import MdocCBOR
import MdocCommandLine
import MdocConsent
import MdocCrypto
import MdocFiles
import MdocModel
import MdocOnline
import MdocPresentation
import MdocSession
import MdocStores
import MdocTerminal
import MdocText

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `mdoc-holder respond`: the wallet's answer to an ISO/IEC TS 18013-7 Annex C or an OpenID4VP
/// 1.0 request.
struct Respond: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Answer an online request (ISO/IEC TS 18013-7 Annex C org-iso-mdoc, or OpenID4VP 1.0), as a wallet does.",
        discussion: """
            Reads the request object a verifier made for the Digital Credentials API \
            ({"deviceRequest": ..., "encryptionInfo": ...}, as `mdoc-reader online-request` \
            writes it), shows it as `present` shows a request, with the reader's identity \
            verified over this request's SessionTranscript for --origin, and sends only the \
            elements you approve (or your --policy approves). The DeviceResponse is signed \
            (DeviceSignature, ISO/IEC 18013-5 9.1.3.4: an online request has no reader key for a \
            MAC) over [null, null, ["dcapi", SHA-256([encryptionInfo, origin])]], encrypted \
            with HPKE to the request's key, and written to --out as {"response": ...}, which \
            `mdoc-reader verify --online-state` verifies.

            An OpenID4VP 1.0 request (a JSON object with response_type vp_token and a DCQL \
            query, as `mdoc-reader online-request --protocol openid4vp` writes it) is answered \
            the same way, one DeviceResponse per Credential Query, signed over the transcript of \
            OpenID4VP 1.0 Appendix B.2.6: for dc_api and dc_api.jwt the OpenID4VPDCAPIHandover of \
            --origin, for direct_post and direct_post.jwt the OpenID4VPHandover of the request's \
            client_id and response_uri (--origin is then not needed), each with the nonce and the \
            JWK thumbprint of the request's key when the response is encrypted. --out gets the \
            vp_token: for the .jwt modes encrypted as a JWE (ECDH-ES, the request's kid and \
            content encryption); through the Digital Credentials API as the JSON object \
            {"vp_token": ...} or {"response": ...}, for direct_post as the form body the wallet \
            posts to the response_uri (vp_token=... or response=...). Signed requests (JAR), \
            transaction_data and DCQL credential_sets, claim_sets and values are refused.

            --origin is the origin of the page that made the request, as the browser would tell \
            the wallet: scheme, host and port, with no path (https://verifier.example). The \
            response is bound to it: a verifier at another origin cannot open it.

            Credentials, reader trust and consent work as for `present` (see `mdoc-holder \
            present --help`): --credential files or stored names (default: every stored \
            credential), --trust-readers (default: MDOC_TRUST_READERS, else \
            ~/.config/swift-mdoc/trust/readers), --yes or --policy, else the prompt; --pin-file \
            and --passphrase-file for device keys in a token or sealed.

            Examples:
              mdoc-holder respond --request request.json --origin https://verifier.example \\
                --credential Certs/demo/mdl.mdoc --out response.json
              mdoc-holder respond --request request.json --origin https://verifier.example \\
                --credential Certs/demo/mdl.mdoc --policy Samples/mdl.json --out response.json

            Exit codes: 0 the response was written (also when nothing was approved: it then \
            holds no document); 2 the --request file is not an org-iso-mdoc or OpenID4VP request, \
            or asks for what is not answered here; 7 \
            unusable --request, --credential, --trust-readers or --policy file, a credential \
            others can read, a device key whose token is absent or refuses the PIN, a sealed \
            device key without its passphrase or with a wrong one, or an --out file that cannot \
            be written; 64 usage error (an --origin that is not a web origin, no --origin for a \
            request through the Digital Credentials API, no credential given or stored included).
            """
    )

    @Option(help: "The request object (JSON) to answer.", completion: .file(extensions: ["json"]))
    var request: String

    @Option(help: ArgumentHelp(
        "The web origin of the page that made the request: https://host[:port], no path (org-iso-mdoc, dc_api, dc_api.jwt).", valueName: "url"))
    var origin: String?

    @Option(help: "Write the response here (the encrypted response object, or the OpenID4VP response or form body).", completion: .file(extensions: ["json"]))
    var out: String

    @Flag(help: "Replace --out if it exists.")
    var force = false

    @Option(name: .customLong("credential"), parsing: .upToNextOption,
            help: ArgumentHelp(
                "Credential files made by `mdoc-issuer issue`, or names of stored credentials (default: every stored credential).",
                valueName: "file-or-name"),
            completion: CredentialCompletion.namesAndFiles)
    var credentials: [String] = []

    @OptionGroup var decision: ReaderTrustAndConsentOptions

    @OptionGroup var token: TokenPINOptions

    @OptionGroup var keyPassphrase: KeyPassphraseOptions

    func validate() throws {
        do {
            if let origin { try DCAPIRequest.checkOrigin(origin) }
        } catch {
            throw ValidationError("--origin \(error.reason)")
        }
    }

    func run() async throws {
        await ProgramFailure.reporting(program: "mdoc-holder") { () async throws(ProgramFailure) in
            try await respond()
        }
    }

    private func respond() async throws(ProgramFailure) {
        let environment = ProcessInfo.processInfo.environment
        let received = try readRequest()
        if !force, OutputFile.exists(out) {
            throw ProgramFailure(.badTrustInput, "--out \(out): exists; give --force to replace it")
        }
        try OutputFile.checkWritable(out, option: "--out")
        let pin = try token.pin()
        let credentials = try keyPassphrase.withPassphrase { (passphrase) throws(ProgramFailure) in
            try HolderCredentials.load(self.credentials, store: .standard(environment: environment), pin: pin, passphrase: passphrase)
        }
        let anchors = try decision.readerRoots(environment: environment)
        let consent = ConsentSource(
            kind: try decision.consentKind(output: .standardOutput), output: .standardOutput, timeout: nil)

        /// Shows `deviceRequest` (bound to `transcript`) with each reader's identity and returns what was approved.
        func decide(_ deviceRequest: DeviceRequest, transcript: SessionTranscriptBinding, heading: TerminalText) async -> ElementSelection {
            let asked = ReceivedRequest(deviceRequest: deviceRequest, sessionTranscript: transcript)
            let trust = ReaderRootTrust(trustAnchors: anchors)
            let identities = deviceRequest.docRequests.map { trust.identity(of: $0, in: asked) }
            ProgramOutput.standardOutput.writeLine(heading)
            return await consent.decide(consent.presentation(of: asked, identities: identities, credentials: credentials))
        }

        let body: String
        let approved: ElementSelection
        let recipient: TerminalText
        switch received {
        case .annexC(let request):
            let origin = try requiredOrigin(for: "an org-iso-mdoc request")
            let transcript = request.sessionTranscript(origin: origin)
            approved = await decide(request.deviceRequest, transcript: transcript, heading: "An org-iso-mdoc request from \(origin):")
            let response = try deviceResponse(request.deviceRequest, credentials: credentials, approved: approved, transcript: transcript)
            do {
                body = try request.seal(response, origin: origin).json.serialized(pretty: true)
            } catch {
                throw ProgramFailure(.malformedInput, "--request \(request): \(error)")
            }
            recipient = "\(origin)"
        case .openID4VP(let request):
            let mode = request.responseMode
            let origin = mode.usesDigitalCredentialsAPI ? try requiredOrigin(for: "an OpenID4VP request with response_mode \(mode)") : nil
            let transcript: SessionTranscriptBinding
            do {
                transcript = try request.sessionTranscript(origin: origin)
            } catch {
                throw ProgramFailure(.malformedInput, "--request \(self.request): \(error)")
            }
            recipient = origin.map { "\($0)" } ?? "\(request.clientID ?? "") (posted to \(request.responseURI ?? ""))"
            let queries = request.dcqlQuery.credentials
            approved = await decide(
                DeviceRequest(docRequests: queries.flatMap(\.deviceRequest.docRequests)), transcript: transcript,
                heading: "An OpenID4VP request (\(mode)) from \(recipient):")
            var answers: [(id: String, deviceResponse: [UInt8])] = []
            for query in queries {
                answers.append((query.id, try deviceResponse(query.deviceRequest, credentials: credentials, approved: approved, transcript: transcript)))
            }
            do {
                body = try request.respond(answers).serialized(for: mode)
            } catch {
                throw ProgramFailure(.malformedInput, "--request \(self.request): \(error)")
            }
        }
        // A form body is written as it is posted, with no line break after it; JSON ends its line.
        let isForm = !body.hasPrefix("{")
        try OutputFile.create(Array((isForm ? body : body + "\n").utf8), at: out, mode: OutputFile.publicMode, replacing: force)
        ProgramOutput.standardError.writeLine(
            "mdoc-holder: \(approved.isEmpty ? "sending no elements" : "sending \(TerminalText(count: approved.count, "approved element"))"): "
                + "the response for \(recipient) is in \(out)")
    }

    /// `--origin`, which `what` needs (a usage error without it).
    private func requiredOrigin(for what: String) throws(ProgramFailure) -> String {
        guard let origin else {
            throw ProgramFailure(.usage, "\(what) is bound to the origin of the page that made it; give --origin", hint: "see 'mdoc-holder respond --help'")
        }
        return origin
    }

    /// The encoded DeviceResponse to `request`, its approved elements signed over `transcript`.
    private func deviceResponse(
        _ request: DeviceRequest, credentials: [Credential], approved: ElementSelection, transcript: SessionTranscriptBinding
    ) throws(ProgramFailure) -> [UInt8] {
        do {
            return try ResponseBuilder().deviceResponse(
                request: request, credentials: credentials, approved: approved, sessionTranscript: transcript
            ).encoded()
        } catch {
            throw ProgramFailure(.badTrustInput, "the response cannot be made: \(error)")
        }
    }

    /// A request `respond` answers.
    private enum Received {
        /// ISO/IEC TS 18013-7 Annex C (`org-iso-mdoc`).
        case annexC(DCAPIRequest)
        /// OpenID4VP 1.0.
        case openID4VP(OpenID4VPRequest)
    }

    /// The request of `--request`: a file that cannot be read is unusable (7), one that is no
    /// org-iso-mdoc or OpenID4VP request malformed (2). An object with a `response_type` is read
    /// as OpenID4VP, any other as Annex C.
    private func readRequest() throws(ProgramFailure) -> Received {
        let bytes: [UInt8]
        do {
            bytes = try InputSource.readFile(request)
        } catch {
            throw ProgramFailure(.badTrustInput, "--request \(error)")
        }
        if case .object(let members)? = try? JSONParser.parse(bytes, maximumDepth: OpenID4VPLimits.maximumRequestDepth),
           members.contains(where: { $0.0 == "response_type" }) {
            do {
                return .openID4VP(try OpenID4VPRequest(json: bytes))
            } catch {
                throw ProgramFailure(.malformedInput, "--request \(request): not an OpenID4VP request answered here: \(error)")
            }
        }
        do {
            return .annexC(try DCAPIRequest(json: bytes))
        } catch {
            throw ProgramFailure(.malformedInput, "--request \(request): not an org-iso-mdoc request: \(error)")
        }
    }
}
