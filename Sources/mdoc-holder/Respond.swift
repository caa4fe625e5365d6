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

/// `mdoc-holder respond`: the wallet's answer to an ISO/IEC TS 18013-7 Annex C request.
struct Respond: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Answer an ISO/IEC TS 18013-7 Annex C (org-iso-mdoc) request from a web origin, as a wallet does.",
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
            holds no document); 2 the --request file is not an org-iso-mdoc request; 7 \
            unusable --request, --credential, --trust-readers or --policy file, a credential \
            others can read, a device key whose token is absent or refuses the PIN, a sealed \
            device key without its passphrase or with a wrong one, or an --out file that cannot \
            be written; 64 usage error (an --origin that is not a web origin, no credential \
            given or stored included).
            """
    )

    @Option(help: "The request object (JSON) to answer.", completion: .file(extensions: ["json"]))
    var request: String

    @Option(help: ArgumentHelp("The web origin of the page that made the request: https://host[:port], no path.", valueName: "url"))
    var origin: String

    @Option(help: "Write the encrypted response object here.", completion: .file(extensions: ["json"]))
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
            try DCAPIRequest.checkOrigin(origin)
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

        let transcript = received.sessionTranscript(origin: origin)
        let asked = ReceivedRequest(deviceRequest: received.deviceRequest, sessionTranscript: transcript)
        let trust = ReaderRootTrust(trustAnchors: anchors)
        var identities: [ReaderIdentity] = []
        for docRequest in received.deviceRequest.docRequests {
            identities.append(trust.identity(of: docRequest, in: asked))
        }
        ProgramOutput.standardOutput.writeLine("An org-iso-mdoc request from \(origin):")
        let approved = await consent.decide(consent.presentation(of: asked, identities: identities, credentials: credentials))
        let response: [UInt8]
        do {
            response = try ResponseBuilder().deviceResponse(
                request: received.deviceRequest, credentials: credentials, approved: approved, sessionTranscript: transcript
            ).encoded()
        } catch {
            throw ProgramFailure(.badTrustInput, "the response cannot be made: \(error)")
        }
        let sealed: EncryptedResponse
        do {
            sealed = try received.seal(response, origin: origin)
        } catch {
            throw ProgramFailure(.malformedInput, "--request \(request): \(error)")
        }
        try OutputFile.create(Array((sealed.json.serialized(pretty: true) + "\n").utf8), at: out, mode: OutputFile.publicMode, replacing: force)
        ProgramOutput.standardError.writeLine(
            "mdoc-holder: \(approved.isEmpty ? "sending no elements" : "sending \(TerminalText(count: approved.count, "approved element"))"): "
                + "the response for \(origin) is in \(out)")
    }

    /// The request of `--request`: a file that cannot be read is unusable (7), one that is no
    /// org-iso-mdoc request malformed (2).
    private func readRequest() throws(ProgramFailure) -> DCAPIRequest {
        let bytes: [UInt8]
        do {
            bytes = try InputSource.readFile(request)
        } catch {
            throw ProgramFailure(.badTrustInput, "--request \(error)")
        }
        do {
            return try DCAPIRequest(json: bytes)
        } catch {
            throw ProgramFailure(.malformedInput, "--request \(request): not an org-iso-mdoc request: \(error)")
        }
    }
}
