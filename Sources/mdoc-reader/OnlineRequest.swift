import ArgumentParser
import MdocCBOR
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

/// `mdoc-reader online-request`: an ISO/IEC TS 18013-7 Annex C or OpenID4VP 1.0 request for
/// mdocs, and the state that verifies its response.
struct OnlineRequest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "online-request",
        abstract: "Make an online request (ISO/IEC TS 18013-7 Annex C org-iso-mdoc, or OpenID4VP 1.0), and the state that verifies its response.",
        discussion: """
            With --protocol org-iso-mdoc (the default), writes to --out the request object a web \
            page gives the Digital Credentials API (navigator.credentials.get, protocol \
            org-iso-mdoc): {"deviceRequest": ..., "encryptionInfo": ...}, each base64url. The \
            DeviceRequest asks for the elements chosen as for `request` (--doctype, --namespace, \
            --elements, --preset, --retain), signed when --reader-cert and --reader-key are given \
            (ISO/IEC 18013-5 9.1.4) over the online SessionTranscript [null, null, ["dcapi", \
            SHA-256([encryptionInfo, origin])]], so only a wallet told this --origin sees the \
            signature verify. The EncryptionInfo carries a fresh nonce and a fresh P-256 key, to \
            which the wallet encrypts its DeviceResponse with HPKE.

            With --protocol openid4vp, writes an unsigned OpenID4VP 1.0 request: response_type \
            vp_token, a fresh nonce, a DCQL query with one mso_mdoc Credential Query per \
            --doctype (its claims the elements chosen, with intent_to_retain), the \
            --response-mode, and for dc_api.jwt and direct_post.jwt a fresh P-256 key (ECDH-ES, \
            its kid the key's JWK thumbprint) in client_metadata.jwks. dc_api and dc_api.jwt go \
            through the Digital Credentials API (protocol openid4vp-v1-unsigned) and bind the \
            response to --origin; direct_post and direct_post.jwt are posted to --response-uri and \
            bind it to --client-id and --response-uri (OpenID4VP 1.0 Appendix B.2.6). The \
            request being unsigned, --client-id is redirect_uri: followed by the --response-uri \
            (section 5.9.3), or a client_id the wallet knows beforehand; prefixes whose requests \
            must be signed (x509_san_dns:, x509_hash:...) are refused. The response mode is dc_api.jwt with \
            --origin and direct_post.jwt with --client-id unless --response-mode says otherwise. \
            The request is not signed (no JAR): --reader-cert does not apply.

            --origin is the web origin the request is made from, as the browser reports it: \
            scheme, host and port, with no path and no final / (https://verifier.example).

            --state is written with mode 0600 and holds the private key that decrypts the \
            response: keep it private, and delete it once the response is verified. \
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
              mdoc-reader online-request --protocol openid4vp --origin https://verifier.example \\
                --preset age-over-18 --state state.json --out request.json
              mdoc-reader online-request --protocol openid4vp \\
                --client-id redirect_uri:https://verifier.example/post --response-uri https://verifier.example/post \\
                --preset age-over-18 --state state.json --out request.json

            Exit codes: 0 the request and state were written; 7 unusable --reader-cert or \
            --reader-key, or a --state or --out file that cannot be written; 64 usage error (an \
            --origin that is not a web origin, an --expires-in out of range, an unknown \
            --doctype, options of the other protocol or response mode, a --client-id an \
            unsigned request cannot carry included).
            """
    )

    @Option(name: .customLong("protocol"), help: "The protocol of the request: org-iso-mdoc (ISO/IEC TS 18013-7 Annex C) or openid4vp (OpenID4VP 1.0).")
    var onlineProtocol: OnlineProtocol = .orgIsoMdoc

    @Option(help: ArgumentHelp("The web origin the request is made from: https://host[:port], no path (org-iso-mdoc, dc_api, dc_api.jwt).", valueName: "url"))
    var origin: String?

    @Option(name: .customLong("client-id"), help: "The OpenID4VP client_id with its prefix, for direct_post and direct_post.jwt.")
    var clientID: String?

    @Option(name: .customLong("response-uri"), help: ArgumentHelp("The OpenID4VP response_uri the wallet posts to, for direct_post and direct_post.jwt.", valueName: "url"))
    var responseURI: String?

    @Option(name: .customLong("response-mode"),
            help: "The OpenID4VP response_mode: dc_api, dc_api.jwt, direct_post or direct_post.jwt.",
            completion: .list(OpenID4VPResponseMode.allCases.map(\.rawValue)))
    var responseMode: String?

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
            if let origin { try DCAPIRequest.checkOrigin(origin) }
            try DCAPIRequestState.checkValidity(.seconds(expiresIn))
        } catch {
            throw ValidationError(error.code == .invalidOrigin ? "--origin \(error.reason)" : "--expires-in \(expiresIn): \(error.reason)")
        }
        switch onlineProtocol {
        case .orgIsoMdoc:
            guard origin != nil else { throw ValidationError("an org-iso-mdoc request needs --origin") }
            for (option, given) in [("--client-id", clientID != nil), ("--response-uri", responseURI != nil), ("--response-mode", responseMode != nil)]
            where given {
                throw ValidationError("\(option) is for --protocol openid4vp")
            }
        case .openID4VP:
            guard readerAuthentication.readerCert == nil else {
                throw ValidationError("OpenID4VP requests are not signed here (no JAR); leave out --reader-cert and --reader-key")
            }
            let mode = try openID4VPMode()
            if mode.usesDigitalCredentialsAPI {
                guard origin != nil, clientID == nil, responseURI == nil else {
                    throw ValidationError("response mode \(mode) binds the response to --origin; give --origin and no --client-id or --response-uri")
                }
            } else {
                guard origin == nil, let clientID, let responseURI, !clientID.isEmpty, !responseURI.isEmpty else {
                    throw ValidationError("response mode \(mode) binds the response to --client-id and --response-uri; give both and no --origin")
                }
            }
        }
        guard state != out else {
            throw ValidationError("--state and --out name one file; the state holds a private key and the request goes to the page")
        }
        _ = try requestBuilder.specs()
    }

    /// `--response-mode`, or dc_api.jwt with `--origin` and direct_post.jwt without.
    private func openID4VPMode() throws(ValidationError) -> OpenID4VPResponseMode {
        guard let responseMode else { return origin != nil ? .digitalCredentialsAPIJWT : .directPostJWT }
        guard let mode = OpenID4VPResponseMode(rawValue: responseMode) else {
            throw ValidationError(
                "--response-mode \(UntrustedText.escaped(responseMode)) is not one of \(OpenID4VPResponseMode.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return mode
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
        let expires: Date
        switch onlineProtocol {
        case .orgIsoMdoc:
            let made: (request: DCAPIRequest, state: DCAPIRequestState)
            do {
                made = try DCAPIRequestState.make(
                    specs, origin: origin ?? "", readerAuthentication: authentication, now: Date(), validity: .seconds(expiresIn))
            } catch {
                throw ProgramFailure(.badTrustInput, "the request cannot be made: \(error)")
            }
            try write(made.request.json, state: made.state.json)
            expires = made.state.expires
            ProgramOutput.standardError.writeLine(
                "mdoc-reader: wrote the org-iso-mdoc request for \(origin ?? "") to \(out) (\(TerminalText(count: made.request.deviceRequest.docRequests.count, "DocRequest")), "
                    + "\(authentication == nil ? "unsigned" : "signed by \"\(authentication?.chain.first?.subject.description ?? "")\""))")
        case .openID4VP:
            let mode: OpenID4VPResponseMode
            do {
                mode = try openID4VPMode()
            } catch {
                throw ProgramFailure(.usage, "\(error.message)", hint: "see 'mdoc-reader online-request --help'")
            }
            let verifier: OpenID4VPRequestState.Verifier = mode.usesDigitalCredentialsAPI
                ? .origin(origin ?? "") : .client(id: clientID ?? "", responseURI: responseURI ?? "")
            let made: (request: OpenID4VPRequest, state: OpenID4VPRequestState)
            do {
                made = try OpenID4VPRequestState.make(
                    try DCQLQuery(specs: specs), responseMode: mode, verifier: verifier, now: Date(), validity: .seconds(expiresIn))
            } catch where error.code == .malformedRequest {
                throw ProgramFailure(.usage, "\(error.reason)", hint: "see 'mdoc-reader online-request --help'")
            } catch {
                throw ProgramFailure(.badTrustInput, "the request cannot be made: \(error)")
            }
            try write(made.request.json, state: made.state.json)
            expires = made.state.expires
            let target = mode.usesDigitalCredentialsAPI
                ? "\(origin ?? "") (Digital Credentials API protocol \(OpenID4VPRequest.protocolIdentifier))" : "\(clientID ?? ""), posted to \(responseURI ?? "")"
            ProgramOutput.standardError.writeLine(
                "mdoc-reader: wrote the OpenID4VP 1.0 request (\(mode)) for \(target) to \(out) "
                    + "(\(TerminalText(count: made.request.dcqlQuery.credentials.count, "Credential Query")), unsigned)")
        }
        ProgramOutput.standardError.writeLine(
            "mdoc-reader: wrote its state to \(state) (mode 0600; it holds the key that decrypts the response: keep it private); it expires at \(TDate(expires).text)")
    }

    /// Writes the request to `--out` (mode 0644) and the state to `--state` (mode 0600).
    private func write(_ request: JSONValue, state stateJSON: JSONValue) throws(ProgramFailure) {
        try OutputFile.create(Array((stateJSON.serialized(pretty: true) + "\n").utf8), at: state, mode: OutputFile.privateMode, replacing: force)
        try OutputFile.create(Array((request.serialized(pretty: true) + "\n").utf8), at: out, mode: OutputFile.publicMode, replacing: force)
    }
}
