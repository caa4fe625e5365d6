import ArgumentParser
import MdocCommandLine
import MdocCrypto
import MdocFiles
import MdocModel
import MdocOnline
import MdocSession
import MdocTerminal
import MdocText

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `mdoc-reader online-request`: an ISO/IEC TS 18013-7 Annex C request for a web origin, and the
/// state that verifies its response.
struct OnlineRequest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "online-request",
        abstract: "Make an ISO/IEC TS 18013-7 Annex C (org-iso-mdoc) request for a web origin, and the state that verifies its response.",
        discussion: """
            Writes to --out the request object a web page gives the Digital Credentials API \
            (navigator.credentials.get, protocol org-iso-mdoc): {"deviceRequest": ..., \
            "encryptionInfo": ...}, each base64url. The DeviceRequest asks for the elements \
            chosen as for `request` (--doctype, --namespace, --elements, --preset, --retain), \
            signed when --reader-cert and --reader-key are given (ISO/IEC 18013-5 9.1.4) over \
            the online SessionTranscript [null, null, ["dcapi", SHA-256([encryptionInfo, \
            origin])]], so only a wallet told this --origin sees the signature verify. The \
            EncryptionInfo carries a fresh nonce and a fresh P-256 key, to which the wallet \
            encrypts its DeviceResponse with HPKE.

            --origin is the web origin the request is made from, as the browser reports it: \
            scheme, host and port, with no path and no final / (https://verifier.example).

            --state is written with mode 0600 and holds the recipient private key that decrypts \
            the response: keep it private, and delete it once the response is verified. \
            `mdoc-reader verify --online-state STATE RESPONSE` verifies the wallet's answer \
            (`mdoc-holder respond`) with it until it expires, --expires-in seconds after now \
            (300 by default; 1 to 86400). Neither file is replaced unless --force is given. \
            See docs/online.md.

            Examples:
              mdoc-reader online-request --origin https://verifier.example \\
                --preset age-over-18 --state state.json --out request.json
              mdoc-reader online-request --origin https://verifier.example \\
                --doctype mdl --elements family_name,portrait \\
                --reader-cert Certs/demo/reader.pem --reader-key Certs/demo/reader-key.pem \\
                --state state.json --out request.json --expires-in 600

            Exit codes: 0 the request and state were written; 7 unusable --reader-cert or \
            --reader-key, or a --state or --out file that cannot be written; 64 usage error (an \
            --origin that is not a web origin, an --expires-in out of range, an unknown \
            --doctype included).
            """
    )

    @Option(help: ArgumentHelp("The web origin the request is made from: https://host[:port], no path.", valueName: "url"))
    var origin: String

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

    @OptionGroup var readerAuthentication: ReaderAuthenticationOptions

    @Option(help: "Write the request's state here (mode 0600; it holds the key that decrypts the response).",
            completion: .file(extensions: ["json"]))
    var state: String

    @Option(help: "Write the request object here.", completion: .file(extensions: ["json"]))
    var out: String

    @Option(name: .customLong("expires-in"), help: "Seconds the response may be verified for (1 to 86400).")
    var expiresIn: Int64 = DCAPILimits.defaultValidity.components.seconds

    @Flag(help: "Replace --state and --out if they exist.")
    var force = false

    func validate() throws {
        if elements != nil && preset != nil {
            throw ValidationError("--elements and --preset both choose elements; give one of them")
        }
        do {
            try DCAPIRequest.checkOrigin(origin)
            try DCAPIRequestState.checkValidity(.seconds(expiresIn))
        } catch {
            throw ValidationError(error.code == .invalidOrigin ? "--origin \(error.reason)" : "--expires-in \(expiresIn): \(error.reason)")
        }
        guard state != out else {
            throw ValidationError("--state and --out name one file; the state holds a private key and the request goes to the page")
        }
        _ = try requestBuilder.specs()
    }

    /// The DocRequests of `--doctype`, `--namespace`, `--elements`, `--preset` and `--retain`.
    private var requestBuilder: RequestBuilder {
        RequestBuilder(docTypes: docTypes, nameSpace: nameSpace, elements: elements, preset: preset, intentToRetain: retain)
    }

    func run() async throws {
        await ProgramFailure.reporting(program: "mdoc-reader") { () async throws(ProgramFailure) in
            try makeRequest()
        }
    }

    private func makeRequest() throws(ProgramFailure) {
        let specs: [DocRequestSpec]
        do {
            specs = try requestBuilder.specs()
        } catch {
            throw ProgramFailure(.usage, "\(error.message)", hint: "see 'mdoc-reader online-request --help'")
        }
        let authentication = try readerAuthentication.load()
        if !force {
            for (path, option) in [(state, "--state"), (out, "--out")] where OutputFile.exists(path) {
                throw ProgramFailure(.badTrustInput, "\(option) \(path): exists; give --force to replace it")
            }
        }
        try OutputFile.checkWritable(state, option: "--state")
        try OutputFile.checkWritable(out, option: "--out")
        let made: (request: DCAPIRequest, state: DCAPIRequestState)
        do {
            made = try DCAPIRequestState.make(
                specs, origin: origin, readerAuthentication: authentication, now: Date(), validity: .seconds(expiresIn))
        } catch {
            throw ProgramFailure(.badTrustInput, "the request cannot be made: \(error)")
        }
        try OutputFile.create(Array((made.state.json.serialized(pretty: true) + "\n").utf8), at: state, mode: OutputFile.privateMode, replacing: force)
        try OutputFile.create(Array((made.request.json.serialized(pretty: true) + "\n").utf8), at: out, mode: OutputFile.publicMode, replacing: force)
        ProgramOutput.standardError.writeLine(
            "mdoc-reader: wrote the org-iso-mdoc request for \(origin) to \(out) (\(TerminalText(count: made.request.deviceRequest.docRequests.count, "DocRequest")), "
                + "\(authentication == nil ? "unsigned" : "signed by \"\(authentication?.chain.first?.subject.description ?? "")\""))")
        ProgramOutput.standardError.writeLine(
            "mdoc-reader: wrote its state to \(state) (mode 0600; it holds the key that decrypts the response: keep it private); it expires at \(TDate(made.state.expires).text)")
    }
}
