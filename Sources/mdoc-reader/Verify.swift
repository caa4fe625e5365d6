import ArgumentParser
import MdocCBOR
import MdocCapture
import MdocCommandLine
import MdocCrypto
import MdocFiles
import MdocModel
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

            Examples:
              mdoc-reader verify Vectors/iso18013-5-annex-d/device_response.hex \\
                --trust Vectors/iso18013-5-annex-d/iaca_cert.hex \\
                --transcript Vectors/iso18013-5-annex-d/session_transcript_bytes.hex \\
                --reader-key Certs/annex-d/eReaderKey.pem --at 2021-01-01T00:00:00Z
              mdoc-reader verify --session capture/ --trust Certs/demo/iaca.pem --json

            Exit codes: 0 verified; 2 malformed input; 3 issuer data authentication failed; \
            4 device authentication failed; 5 device authentication not checked (no transcript \
            or reader key); 6 no documents in the response; 7 unusable --trust, --transcript or \
            --reader-key file; 8 a captured session without a response; 64 usage error.
            """
    )

    @Argument(help: "The DeviceResponse: a file (binary CBOR or hex) or '-' for standard input (omit with --session).", completion: .file())
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

    @Flag(help: "Print the report as JSON.")
    var json = false

    func validate() throws {
        guard (response == nil) != (session == nil) else {
            throw ValidationError("give a DeviceResponse file or --session DIR, not both and not neither")
        }
        if session != nil && (transcript != nil || readerKey != nil) {
            throw ValidationError("--session brings its own transcript and key; leave out --transcript and --reader-key")
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
        var binding: SessionTranscriptBinding? = nil
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
        VerificationExit.show(report, json: json, trustEntries: issuers.entries)
        try VerificationExit.check(report)
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
