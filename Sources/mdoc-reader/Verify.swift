import ArgumentParser
import MdocCBOR
import MdocCapture
import MdocCommandLine
import MdocCrypto
import MdocFiles
import MdocModel
import MdocOnline
import MdocSession
import MdocStores
import MdocTerminal
import MdocText

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `mdoc-reader verify`: verify a stored DeviceResponse offline.
struct Verify: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Verify a stored DeviceResponse against trust anchors and print a report.",
        discussion: """
            Checks the document signer chain to the --trust anchors (ISO/IEC 18013-5 Annex B \
            profile, the document signer's extendedKeyUsage under its doc type's rule: \
            1.0.18013.5.1.2 for the mDL; for the EU PID, the EU age verification attestation \
            and other doc types 1.3.130.2.0.0.1.2, 1.0.23220.4.1.2 or 1.0.18013.5.1.2; more \
            with --accept-ds-eku), the MSO signature and validity window, docType, every \
            returned element's digest, and device authentication (DeviceSignature, or DeviceMac \
            with --reader-key) against the --transcript.

            --trust takes IACA root certificates, or directories of them: in a directory, \
            private keys and certificates that are not self-signed (the rest of a PKI folder \
            from `mdoc-issuer pki`) are skipped with a note. Without --trust the paths of \
            MDOC_TRUST (separated by ':') are trusted, else the folder \
            ~/.config/swift-mdoc/trust/iaca ($XDG_CONFIG_HOME/swift-mdoc/trust/iaca) when it \
            exists.

            --session DIR verifies a session captured by `mdoc-reader request --save-session \
            DIR` fully offline: the response as it went over the link, decrypted with the \
            capture's ephemeral key, bound to its SessionTranscriptBytes (DeviceMac included), \
            at the time the live session verified it (unless --at), so the report and exit \
            status are the live session's. A capture that holds no response ends with 8, as \
            the live session did (docs/session-capture.md).

            --online-state STATE verifies the answer to an ISO/IEC TS 18013-7 Annex C request \
            made with `mdoc-reader online-request --state STATE`: the response file is the \
            wallet's {"response": ...} object (`mdoc-holder respond --out`). It is decrypted with \
            the state's key and SessionTranscript [null, null, ["dcapi", SHA-256([encryptionInfo, \
            origin])]] (HPKE), then verified bound to that transcript; the report shows the \
            request's origin and nonce (docs/online.md). The request's expiry is checked at the \
            verification time (--at, default now).

            For the state of an OpenID4VP 1.0 request (`online-request --protocol openid4vp`) \
            the response file is what the wallet returned: {"vp_token": ...} or {"response": \
            JWE} through the Digital Credentials API, or the form body posted to the \
            response_uri (vp_token=... or response=...). A JWE must be ECDH-ES with a content \
            encryption the request offered and the request's kid, and decrypt with the state's \
            key; the vp_token must answer each Credential Query with one DeviceResponse, each \
            verified (one report each) bound to [null, null, OpenID4VPDCAPIHandover] of the \
            origin or [null, null, OpenID4VPHandover] of the client_id and response_uri, with \
            the nonce and the key's JWK thumbprint (OpenID4VP 1.0 Appendix B.2.6). A response \
            signed for another origin, client or nonce fails device authentication (4).

            --handover SPEC verifies a DeviceResponse (binary CBOR or hex) that someone else \
            requested online, bound to the SessionTranscript [null, null, Handover] of SPEC, one \
            of:
              openid4vp:client_id=ID,nonce=N,response_uri=URI[,jwk_thumbprint=T]
              openid4vp-dcapi:origin=ORIGIN,nonce=N[,jwk_thumbprint=T]
              iso-oid4vp:client_id=ID,response_uri=URI,nonce=N,mdoc_generated_nonce=M
              dcapi:origin=ORIGIN,encryption_info=BASE64URL
            (OpenID4VP 1.0 Appendix B.2.6, redirects and the Digital Credentials API; ISO/IEC \
            TS 18013-7:2024 Annex B; 18013-7 Annex C). client_id carries its prefix \
            (x509_san_dns:verifier.example); T is the base64url RFC 7638 thumbprint of the key \
            the response was encrypted to. Each value is percent-decoded: write a comma as %2C \
            and a % as %25.

            Examples:
              mdoc-reader verify Vectors/iso18013-5-annex-d/device_response.hex \\
                --trust Vectors/iso18013-5-annex-d/iaca_cert.hex \\
                --transcript Vectors/iso18013-5-annex-d/session_transcript_bytes.hex \\
                --reader-key Certs/annex-d/eReaderKey.pem --at 2021-01-01T00:00:00Z
              mdoc-reader verify --session capture/ --trust Certs/demo/iaca.pem --json
              mdoc-reader verify --online-state state.json response.json \\
                --trust Certs/demo/iaca.pem

            Exit codes: 0 verified; 2 malformed input; 3 issuer data authentication failed; \
            4 device authentication failed; 5 device authentication not checked (no transcript \
            or reader key); 6 no documents in the response; 7 unusable --trust, --transcript, \
            --reader-key or --online-state file (a state whose nonce or key was changed \
            included); 8 a captured session without a response; 11 the online response does \
            not belong to the --online-state request (another request or origin, altered, an \
            OpenID4VP JWE of another kid or algorithm, a vp_token that does not answer the \
            DCQL query) or came after it expired; 64 usage error (a malformed --handover SPEC included).
            """
    )

    @Argument(help: "The DeviceResponse: a file (binary CBOR or hex; with --online-state the wallet's JSON answer) or '-' for standard input (omit with --session).", completion: .file())
    var response: String?

    @Option(help: "A session captured with `mdoc-reader request --save-session`: verify its response offline.",
            completion: .directory)
    var session: String?

    @Option(name: .customLong("trust"), parsing: .upToNextOption,
            help: "Trust anchor (IACA root) certificates (PEM, DER or hex DER files, or directories of them; default: MDOC_TRUST, else ~/.config/swift-mdoc/trust/iaca).",
            completion: .file())
    var trust: [String] = []

    @OptionGroup var trustStore: TrustStoreChoice

    @OptionGroup var status: StatusOptions

    @OptionGroup var documentSigner: DocumentSignerOptions

    @Option(help: "The verification time, RFC 3339 (default: now; with --session, the captured session's).")
    var at: String?

    @Option(help: "The SessionTranscript or SessionTranscriptBytes the response is bound to.", completion: .file())
    var transcript: String?

    @Option(name: .customLong("reader-key"), help: "The reader's ephemeral private key (PEM or COSE_Key), for DeviceMac.",
            completion: .file())
    var readerKey: String?

    @Option(name: .customLong("online-state"),
            help: "The state of an `mdoc-reader online-request`: the response file is the wallet's encrypted answer to it.",
            completion: .file(extensions: ["json"]))
    var onlineState: String?

    @Option(help: ArgumentHelp(
        "The online request the DeviceResponse answers: openid4vp:..., openid4vp-dcapi:..., iso-oid4vp:... or dcapi:... (see above).",
        valueName: "spec"))
    var handover: String?

    @Flag(help: "Print the report as JSON.")
    var json = false

    func validate() throws {
        guard (response == nil) != (session == nil) else {
            throw ValidationError("give a DeviceResponse file or --session DIR, not both and not neither")
        }
        if session != nil && (transcript != nil || readerKey != nil) {
            throw ValidationError("--session brings its own transcript and key; leave out --transcript and --reader-key")
        }
        let bindings = [("--session", session != nil), ("--online-state", onlineState != nil), ("--handover", handover != nil),
                        ("--transcript", transcript != nil)].filter(\.1).map(\.0)
        if bindings.count > 1 {
            throw ValidationError("\(bindings.joined(separator: " and ")) each give the transcript the response is bound to; give one of them")
        }
        if (onlineState != nil || handover != nil) && readerKey != nil {
            throw ValidationError("an online response has no reader key to MAC with; leave out --reader-key")
        }
        if let handover {
            _ = try OnlineHandoverSpec(handover)
        }
        if let at, (try? TDate(text: at)) == nil {
            throw ValidationError("--at \(at): not an RFC 3339 date-time (for example 2021-01-01T00:00:00Z)")
        }
    }

    func run() async throws {
        let policy = try documentSigner.policy()
        await ProgramFailure.reporting(program: "mdoc-reader") { () async throws(ProgramFailure) in
            try await verify(policy: policy)
        }
    }

    private func verify(policy: DocumentSignerPolicy) async throws(ProgramFailure) {
        if let session {
            let time: Date? = at == nil ? nil : try verificationTime()
            let issuers = try ReaderTrust.issuers(trust, store: trustStore, policy: policy, at: time ?? Date(), command: "verify")
            let replay = try SessionReplay(directory: session)
            let report = try await replay.verify(trustAnchors: issuers.anchors, documentSignerPolicy: issuers.policy, at: time, status: status)
            VerificationExit.show(report, json: json, trustEntries: issuers.entries)
            try VerificationExit.check(report, capturedBy: replay.capture.role)
            return
        }
        guard let response else { return }
        let time = try verificationTime()
        let issuers = try ReaderTrust.issuers(trust, store: trustStore, policy: policy, at: time, command: "verify")
        if let onlineState {
            try await verifyOnline(response, state: onlineState, issuers: issuers, at: time)
            return
        }
        var binding: SessionTranscriptBinding? = nil
        var online: OnlineBinding? = nil
        if let handover {
            let spec: OnlineHandoverSpec
            do {
                spec = try OnlineHandoverSpec(handover)
            } catch {
                throw ProgramFailure(.usage, "\(error.message)")
            }
            binding = spec.sessionTranscript
            online = OnlineBinding(spec: spec)
        }
        if let transcript {
            do {
                binding = try SessionTranscriptBinding(encoded: try InputSource.load(transcript).bytes)
            } catch {
                throw ProgramFailure(.badTrustInput, "--transcript \(transcript): not a SessionTranscript: \(error)")
            }
        }
        var key: PrivateKey? = nil
        if let readerKey {
            do {
                key = try KeyFiles.loadPrivateKey(readerKey)
            } catch {
                throw ProgramFailure(.badTrustInput, "--reader-key \(error)")
            }
        }

        var report: VerificationReport
        let verifier = DeviceResponseVerifier(
            trustAnchors: issuers.anchors, documentSignerPolicy: issuers.policy, sessionTranscript: binding, readerKey: key)
        if OutputFile.isDirectory(response) {
            throw ProgramFailure(.malformedInput, "\(response): \(Self.folderKind(response))")
        }
        let input: InputSource
        do {
            input = try InputSource.load(response)
        } catch {
            throw ProgramFailure(.malformedInput, "\(error)")
        }
        do {
            report = try verifier.verify(input.bytes, at: time)
        } catch {
            throw ProgramFailure(.malformedInput, "\(response): \(Self.notADeviceResponse(input, given: response, failure: error))")
        }
        let decoded = try? DeviceResponse(encoded: input.bytes)

        if let decoded {
            report = await StatusCheck.check(decoded, report: report, verifier: verifier, options: status)
        }
        VerificationExit.show(report, json: json, trustEntries: issuers.entries, online: online)
        try VerificationExit.check(report)
    }

    /// Verifies `response`, the wallet's answer to the Annex C request of the state file
    /// `statePath` (ISO/IEC TS 18013-7 Annex C): opened with the state's key and transcript,
    /// then verified bound to that transcript, the request's origin and nonce in the report.
    private func verifyOnline(_ response: String, state statePath: String, issuers: IssuerTrust, at time: Date) async throws(ProgramFailure) {
        let stateBytes: [UInt8]
        do {
            stateBytes = try InputSource.readFile(statePath)
        } catch {
            throw ProgramFailure(.badTrustInput, "--online-state \(error)")
        }
        if Self.stateFormat(of: stateBytes) == OpenID4VPRequestState.format {
            try await verifyOpenID4VP(response, state: stateBytes, statePath: statePath, issuers: issuers, at: time)
            return
        }
        let state: DCAPIRequestState
        do {
            state = try DCAPIRequestState(json: stateBytes)
        } catch {
            throw ProgramFailure(.badTrustInput, "--online-state \(statePath): not a usable request state: \(error)")
        }
        let encrypted: EncryptedResponse
        do {
            encrypted = try EncryptedResponse(json: try readResponse(response))
        } catch {
            throw ProgramFailure(.malformedInput, "\(response): not an org-iso-mdoc response: \(error)")
        }
        let deviceResponse: [UInt8]
        do {
            deviceResponse = try state.open(encrypted, at: time)
        } catch {
            throw ProgramFailure(.onlineBindingFailed, "\(response): \(error)")
        }
        let verifier = DeviceResponseVerifier(
            trustAnchors: issuers.anchors, documentSignerPolicy: issuers.policy, sessionTranscript: state.sessionTranscript)
        var report: VerificationReport
        do {
            report = try verifier.verify(deviceResponse, at: time)
        } catch {
            throw ProgramFailure(.malformedInput, "\(response): the decrypted response is not a DeviceResponse: \(error)")
        }
        if let decoded = try? DeviceResponse(encoded: deviceResponse) {
            report = await StatusCheck.check(decoded, report: report, verifier: verifier, options: status)
        }
        VerificationExit.show(report, json: json, trustEntries: issuers.entries, online: OnlineBinding(state: state))
        try VerificationExit.check(report)
    }

    /// Verifies `response`, the wallet's answer to the OpenID4VP 1.0 request of the state
    /// `stateBytes` (read from `statePath`): the `vp_token` taken from it (decrypted for the
    /// `.jwt` modes), then each DeviceResponse verified bound to the Appendix B.2.6 transcript,
    /// the request's parameters in the report. The exit is that of the first that fails.
    private func verifyOpenID4VP(
        _ response: String, state stateBytes: [UInt8], statePath: String, issuers: IssuerTrust, at time: Date
    ) async throws(ProgramFailure) {
        let state: OpenID4VPRequestState
        let transcript: SessionTranscriptBinding
        do {
            state = try OpenID4VPRequestState(json: stateBytes)
            transcript = try state.sessionTranscript
        } catch {
            throw ProgramFailure(.badTrustInput, "--online-state \(statePath): not a usable request state: \(error)")
        }
        let received: OpenID4VPResponse
        do {
            received = try OpenID4VPResponse(received: try readResponse(response))
        } catch {
            throw ProgramFailure(.malformedInput, "\(response): not an OpenID4VP response: \(error)")
        }
        let answers: [(id: String, deviceResponse: [UInt8])]
        do {
            answers = try state.open(received, at: time)
        } catch where [.malformedJWE, .jweTooLarge, .malformedResponse].contains(error.code) {
            throw ProgramFailure(.malformedInput, "\(response): not an OpenID4VP response: \(error)")
        } catch {
            throw ProgramFailure(.onlineBindingFailed, "\(response): \(error)")
        }
        let verifier = DeviceResponseVerifier(
            trustAnchors: issuers.anchors, documentSignerPolicy: issuers.policy, sessionTranscript: transcript)
        var reports: [VerificationReport] = []
        for answer in answers {
            var report: VerificationReport
            do {
                report = try verifier.verify(answer.deviceResponse, at: time)
            } catch {
                throw ProgramFailure(.malformedInput, "\(response): the vp_token presentation \"\(answer.id)\" is not a DeviceResponse: \(error)")
            }
            if let decoded = try? DeviceResponse(encoded: answer.deviceResponse) {
                report = await StatusCheck.check(decoded, report: report, verifier: verifier, options: status)
            }
            VerificationExit.show(report, json: json, trustEntries: issuers.entries, online: OnlineBinding(state: state, credentialID: answer.id))
            reports.append(report)
        }
        for report in reports {
            try VerificationExit.check(report)
        }
    }

    /// The response file, or standard input for `-`.
    private func readResponse(_ response: String) throws(InputError) -> [UInt8] {
        try response == "-" ? InputSource.readAll(fd: 0, name: "standard input") : InputSource.readFile(response)
    }

    /// The `format` member of a state file, or `nil` when it is not a JSON object with one.
    private static func stateFormat(of bytes: [UInt8]) -> String? {
        guard bytes.count <= OpenID4VPLimits.maximumStateByteCount,
              case .object(let members)? = try? JSONParser.parse(bytes, maximumDepth: OpenID4VPLimits.maximumResponseDepth),
              case .string(let format)? = members.first(where: { $0.0 == "format" })?.1
        else { return nil }
        return format
    }

    /// What the folder `path` is, given where a DeviceResponse file belongs: a session capture
    /// (it has an index), which `--session` verifies, or another folder.
    private static func folderKind(_ path: String) -> String {
        let index = (path.hasSuffix("/") ? path : path + "/") + SessionCapture.indexFileName
        guard case .file = DirectoryListing.kind(of: index) else { return "is a folder, not a DeviceResponse file" }
        return "is a session capture folder, not a DeviceResponse file; verify it with `mdoc-reader verify --session \(path)`"
    }

    /// What `input`, which holds no DeviceResponse (its decoding failed with `failure`), is
    /// (`InputKind`, MdocFiles), and what to run on it instead; `response` is the argument
    /// that named it.
    private static func notADeviceResponse(_ input: InputSource, given response: String, failure: CBORError) -> String {
        let kind = InputKind(of: input)
        let instead: String
        switch kind {
        case .message(.deviceResponse), .cbor, .unknown:
            return "not a DeviceResponse: \(failure)"
        case .message(.deviceRequest):
            instead = "check its reader authentication with `mdoc-reader verify-request \(response)`"
        case .encrypted:
            instead = "only its session's keys decrypt it: capture a session with `mdoc-reader request --save-session DIR`, "
                + "then verify it with `mdoc-reader verify --session DIR`"
        case .message(.credential):
            instead = "present it with `mdoc-holder present --credential \(response)` and read it with `mdoc-reader request`"
        case .pemCertificate, .der:
            instead = "an IACA certificate is given with --trust, and `mdoc inspect \(response)` explains any certificate"
        case .pemPrivateKey:
            instead = "a reader's ephemeral key, for DeviceMac, is given with --reader-key"
        case .issuerData:
            instead = "`mdoc-issuer issue --data \(response)` makes a credential of it"
        case .message:
            instead = "`mdoc inspect \(response)` explains it"
        case .consentPolicy, .json, .pem, .text:
            instead = "give a DeviceResponse, binary CBOR or hex, as `mdoc-reader request --save-session` keeps it"
        }
        return "is \(kind), not a DeviceResponse; \(instead)"
    }

    /// The `--at` time (checked by `validate()`), or now.
    private func verificationTime() throws(ProgramFailure) -> Date {
        guard let at else { return Date() }
        do {
            return try TDate(text: at).date
        } catch {
            throw ProgramFailure(.badTrustInput, "--at \(at): \(error)")
        }
    }
}
