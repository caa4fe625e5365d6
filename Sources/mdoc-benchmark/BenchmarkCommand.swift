import ArgumentParser
import MdocCBOR
import MdocModel
import MdocTerminal

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `mdoc-benchmark`'s command line: what main.swift runs, parsed by swift-argument-parser so that
/// the program has `--help`, `--version`, a manual and shell completions like the others.
struct MdocBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mdoc-benchmark",
        abstract: "Time DeviceResponse verification and BLE sessions beside the OpenSSL work they need.",
        discussion: """
            verify without a response reads the Annex D vectors (Vectors/), and link the demo \
            credential (Certs/demo/), from the swift-mdoc checkout the program was built from, \
            or from MDOC_VECTORS_DIR; scaling makes its own responses. Build it in release mode \
            for meaningful figures.

            ENVIRONMENT
              MDOC_VECTORS_DIR  The folder of the Annex D vectors, when the program does not run \
            from the checkout it was built from.
              MDOC_TOKEN_PIN  The PIN of the PKCS#11 token of keys --pkcs11-uri.

            FILES
              Vectors/iso18013-5-annex-d, Certs/demo  The default inputs of verify and link, in \
            the checkout the program was built from.

            EXIT STATUS
              0  Measured (presentations: within the bound, or too few sessions to judge).
              1  An input was missing or unusable, an operation gave a wrong result, a session \
            failed, or memory grew past the bound.
              64  Usage error.
            """,
        version: ToolVersion.current,
        subcommands: [Verification.self, Scaling.self, Link.self, NFC.self, Presentations.self, Sessions.self, Status.self, Online.self, Keys.self, MemoryProbe.self],
        defaultSubcommand: Verification.self
    )

    /// `mdoc-benchmark verify`: decoding and verification of one DeviceResponse.
    struct Verification: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Time decoding and verifying a DeviceResponse beside its OpenSSL floor (the default).",
            discussion: """
                Verifies the DeviceResponse named (with the files mdoc-reader verify takes: \
                --trust, --transcript, --reader-key, --at), or without one the ISO/IEC 18013-5 \
                Annex D DeviceResponse, and prints the median and 90th percentile of decoding it, \
                of verifying it warm (a verifier that has seen its document signer) and cold (a \
                new verifier, as every mdoc-reader verify process is), next to the OpenSSL work \
                verification cannot avoid (the X.509 signatures of each document signer's path, \
                the IssuerAuth signature, every IssuerSignedItemBytes digest, the DeviceSignature \
                or the ECDH, HKDF and HMAC of a DeviceMac), measured in the same run; their \
                ratios; and the peak memory of one verification above the base, per input byte, \
                measured in a child process. The response must verify.

                With --soak N it measures nothing of that: it verifies the response N times, each \
                with a new verifier (with --warm, one verifier for all), and prints resident \
                memory and open descriptors at the start and after each tenth of the run \
                (scripts/soak.sh). Under valgrind --tool=callgrind, the instructions of --soak 3 \
                less those of --soak 1, halved, are those of one verification: a count that a busy \
                machine does not disturb.

                Examples:
                  swift run -c release mdoc-benchmark verify --iterations 2000 --json
                  mdoc-benchmark verify response.cbor --trust iaca.pem \\
                    --transcript session_transcript_bytes.cbor --reader-key eReaderKey.pem
                  swift run -c release mdoc-benchmark --soak 10000
                  valgrind --tool=callgrind mdoc-benchmark --soak 3 --warm

                Exit codes: 0 measured; 1 an input was missing or unusable, did not verify, or \
                an operation gave a wrong result; 64 usage error.
                """
        )

        @OptionGroup var input: InputOptions

        @Option(help: ArgumentHelp("Time exactly this many calls of each operation (default: at least 200 calls and 0.3 s).",
                                   valueName: "N"))
        var iterations: Int?

        @Flag(help: "Print the figures as JSON.")
        var json = false

        @Option(help: ArgumentHelp("Instead of timing, verify N times with a new verifier each and report memory and descriptors.",
                                   valueName: "N"))
        var soak: Int?

        @Flag(help: "With --soak, verify with one verifier throughout, as a reader that has seen the signer.")
        var warm = false

        func validate() throws {
            try input.validate()
            if warm, soak == nil {
                throw ValidationError("--warm goes with --soak")
            }
            if let iterations, iterations <= 0 {
                throw ValidationError("--iterations needs a positive whole number")
            }
            if let soak, soak <= 0 {
                throw ValidationError("--soak needs a positive whole number")
            }
        }
    }

    /// `mdoc-benchmark scaling`: verification over generated responses of growing size.
    struct Scaling: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Time verification over responses of 1 to 4,000 elements and 15 KB to the input limit.",
            discussion: """
                Issues an mDL with the toolkit's own DocumentIssuer (a new P-256 IACA and \
                document signer) and answers a request for all of it with ResponseBuilder (DeviceMac), \
                once per row: by element count (short text elements) and by response size (ten \
                elements and a portrait filling the rest, up to the CBOR decoder's 8 MiB input \
                limit). Each row gives warm verification beside its OpenSSL floor and the digests' \
                share of it, measured in the same run, the cost of each further element or byte \
                against that of its digest, and the peak memory above the base per input byte \
                (child process); least-squares slopes close each table.

                Examples:
                  swift run -c release mdoc-benchmark scaling
                  mdoc-benchmark scaling --elements 1 2000 --sizes 15000 --save-inputs /tmp/inputs

                Exit codes: 0 measured; 1 a response could not be made or did not verify; 64 usage \
                error.
                """
        )

        @Option(parsing: .upToNextOption, help: ArgumentHelp("The element counts of the first table.", valueName: "N"))
        var elements: [Int] = ScalingBenchmark.defaultElementCounts

        @Option(parsing: .upToNextOption, help: ArgumentHelp("The response sizes in bytes of the second table.", valueName: "BYTES"))
        var sizes: [Int] = ScalingBenchmark.defaultResponseSizes

        @Option(help: ArgumentHelp("Time exactly this many calls of each operation (default: at least 10 calls and 0.3 s).",
                                   valueName: "N"))
        var iterations: Int?

        @Option(name: .customLong("save-inputs"),
                help: ArgumentHelp("Keep each generated response with its IACA, transcript and reader key in a folder of DIR.",
                                   valueName: "DIR"))
        var saveInputs: String?

        @Flag(help: "Print the figures as JSON.")
        var json = false

        func validate() throws {
            guard !elements.isEmpty, elements.allSatisfy({ $0 > 0 }) else {
                throw ValidationError("--elements needs positive whole numbers")
            }
            guard sizes.allSatisfy({ $0 > 0 && $0 <= CBORLimits.defaultMaximumInputSize }) else {
                throw ValidationError("--sizes needs sizes from 1 to the input limit, \(CBORLimits.defaultMaximumInputSize) bytes")
            }
            if let iterations, iterations <= 0 {
                throw ValidationError("--iterations needs a positive whole number")
            }
        }
    }

    /// `mdoc-benchmark memory-probe`: the child process of the peak-memory measurement.
    struct MemoryProbe: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "memory-probe",
            abstract: "Verify a DeviceResponse once and print the base and peak resident memory above it, in KiB.",
            shouldDisplay: false
        )

        @OptionGroup var input: InputOptions

        func validate() throws {
            try input.validate()
        }
    }

    /// The DeviceResponse to measure and what verifying it needs, as `mdoc-reader verify` takes
    /// them.
    struct InputOptions: ParsableArguments {
        @Argument(help: "A DeviceResponse (binary CBOR or hex); the Annex D DeviceResponse when omitted.")
        var response: String?

        @Option(name: .customLong("trust"), parsing: .upToNextOption,
                help: "Trust anchor certificates (PEM, DER or hex DER files, or directories of them).")
        var trust: [String] = []

        @Option(help: "The SessionTranscript or SessionTranscriptBytes the response is bound to.")
        var transcript: String?

        @Option(name: .customLong("reader-key"), help: "The reader's ephemeral private key (PEM or COSE_Key), for DeviceMac.")
        var readerKey: String?

        @Option(help: "The verification time, RFC 3339 (default: now; 2021-01-01T00:00:00Z for Annex D).")
        var at: String?

        func validate() throws {
            if response == nil {
                guard trust.isEmpty, transcript == nil, readerKey == nil, at == nil else {
                    throw ValidationError("--trust, --transcript, --reader-key and --at go with a named response")
                }
                return
            }
            guard !trust.isEmpty else {
                throw ValidationError("give at least one --trust certificate or directory with a response")
            }
            if let at, (try? TDate(text: at)) == nil {
                throw ValidationError("--at \(at): not an RFC 3339 date-time (for example 2021-01-01T00:00:00Z)")
            }
        }

        /// The input these options name.
        func load() throws -> VerificationInput {
            guard let response else { return try VerificationInput.annexD() }
            let time = try at.map { try TDate(text: $0).date } ?? Date()
            return try VerificationInput.load(
                VerificationInput.Files(response: response, trust: trust, transcript: transcript, readerKey: readerKey), at: time)
        }
    }

    /// `mdoc-benchmark status`: a document's status read from a Status List Token.
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Time reading a document's status from a Status List Token beside its ES256 and zlib floor.",
            discussion: """
                Makes Status List Tokens (draft-ietf-oauth-status-list) of 2^14 and 2^20 one-bit \
                entries, 1 % revoked, signed ES256 by a new document signer, and times the check a \
                reader makes of a token it holds (decoding, signature, sub, iat, exp, inflating the \
                list, reading an entry) and the same through TokenStatusListChecker (with the \
                binding of the token to the document signer), beside the ES256 verification and \
                the zlib inflation they cannot avoid, measured in the same run.

                With --soak N it times nothing: it checks one document's status N times through \
                TokenStatusListChecker from a token of 2^20 entries (every hundredth revoked, the \
                same list each run), and prints resident memory and open descriptors at the start \
                and after each tenth of the run. Under valgrind --tool=callgrind, the \
                instructions of --soak 30 less those of --soak 10, divided by 20, are those of \
                one check (scripts/perf-gates.py).

                Examples:
                  swift run -c release mdoc-benchmark status
                  valgrind --tool=callgrind mdoc-benchmark status --soak 10

                Exit codes: 0 measured; 1 an operation gave a wrong result; 64 usage error.
                """
        )

        @Option(help: ArgumentHelp("Time exactly this many calls of each operation (default: at least 200 calls and 0.3 s).",
                                   valueName: "N"))
        var iterations: Int?

        @Option(help: ArgumentHelp("Check one document's status N times instead of timing anything.", valueName: "N"))
        var soak: Int?

        @Flag(help: "Print the figures as JSON.")
        var json = false

        func validate() throws {
            if let iterations, iterations <= 0 { throw ValidationError("--iterations needs a positive whole number") }
            if let soak, soak <= 0 { throw ValidationError("--soak needs a positive whole number") }
            if soak != nil, iterations != nil || json { throw ValidationError("--soak times nothing: it goes without --iterations and --json") }
        }
    }

    /// `mdoc-benchmark online`: opening and verifying an ISO/IEC TS 18013-7 Annex C response.
    struct Online: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Time opening and verifying an online (18013-7 Annex C) response beside its OpenSSL floor.",
            discussion: """
                Makes an org-iso-mdoc request (ISO/IEC TS 18013-7 Annex C) for every element of \
                the demo mDL (Certs/demo), answers it with the holder's ResponseBuilder \
                (DeviceSignature over the dcapi SessionTranscript) sealed with HPKE to the \
                request's key, and times what a verifier does with the answer: opening it (HPKE, \
                RFC 9180: P-256 DHKEM, HKDF-SHA256, AES-128-GCM), verifying the DeviceResponse, \
                and both, beside the OpenSSL work they cannot avoid (point decoding, ECDH, the \
                HKDFs, AES-128-GCM; the signatures and digests of verification), measured in the \
                same run.

                With --soak N it times nothing: it opens and verifies the one answer N times, \
                each with a new verifier, as a verifier service does with each answer, and \
                prints resident memory and open descriptors at the start and after each tenth of \
                the run. Under valgrind --tool=callgrind, the instructions of --soak 30 less those \
                of --soak 10, divided by 20, are those of one answer (scripts/perf-gates.py).

                Examples:
                  swift run -c release mdoc-benchmark online
                  valgrind --tool=callgrind mdoc-benchmark online --soak 10

                Exit codes: 0 measured; 1 an input was missing or an operation gave a wrong \
                result; 64 usage error.
                """
        )

        @Option(help: ArgumentHelp("Time exactly this many calls of each operation (default: at least 200 calls and 0.3 s).",
                                   valueName: "N"))
        var iterations: Int?

        @Option(help: ArgumentHelp("Open and verify the answer N times instead of timing anything.", valueName: "N"))
        var soak: Int?

        @Flag(help: "Print the figures as JSON.")
        var json = false

        func validate() throws {
            if let iterations, iterations <= 0 { throw ValidationError("--iterations needs a positive whole number") }
            if let soak, soak <= 0 { throw ValidationError("--soak needs a positive whole number") }
            if soak != nil, iterations != nil || json { throw ValidationError("--soak times nothing: it goes without --iterations and --json") }
        }
    }

    /// `mdoc-benchmark presentations`: many whole presentations in one process, and its memory.
    struct Presentations: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run many presentations in one process and check its resident memory does not grow.",
            discussion: """
                Presents the demo mDL (every element) N times, each time between a new holder \
                and a new reader driver over one in-memory radio in this process, as a kiosk \
                reader or a venue holder built on the library does, and prints resident memory \
                and open descriptors at the start, after each tenth of the run and after its \
                first half, the warm-up (a cancelled Task.sleep keeps about 1 KiB until its \
                deadline, and the allocator's arenas grow at first); then the growth over the \
                second half against its limit: 1,024 KiB for the allocator's steps plus 256 KiB \
                per 1,000 sessions. scripts/soak.sh runs it.

                Example:
                  swift run -c release mdoc-benchmark presentations --soak 20000

                Exit codes: 0 within the bound (or too few sessions to judge: fewer than \
                2,000); 1 a presentation failed, or memory grew past the bound; 64 usage error.
                """
        )

        @Option(help: ArgumentHelp("The number of presentations.", valueName: "N"))
        var soak: Int

        func validate() throws {
            guard soak > 0 else { throw ValidationError("--soak needs a positive whole number") }
        }
    }

    /// `mdoc-benchmark sessions`: many whole sessions through the protocol state machines alone.
    struct Sessions: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run whole sessions between a holder and a reader session on one thread, without a transport.",
            discussion: """
                Runs N sessions of ISO/IEC 18013-5 between a HolderSession and a ReaderSession \
                (MdocSession) on one thread: the engagement, the SessionEstablishment with its \
                request, the session keys, consent to every element of the demo mDL, the \
                response with its DeviceMac, its verification and the reader's termination; and \
                prints resident memory and open descriptors at the start and after each tenth of \
                the run. Under valgrind --tool=callgrind, the instructions of --soak 30 less those \
                of --soak 10, divided by 20, are those of one session (scripts/perf-gates.py).

                Example:
                  valgrind --tool=callgrind mdoc-benchmark sessions --soak 20

                Exit codes: 0 every session verified; 1 a session failed or its response did \
                not verify; 64 usage error.
                """
        )

        @Option(help: ArgumentHelp("The number of sessions.", valueName: "N"))
        var soak: Int

        func validate() throws {
            guard soak > 0 else { throw ValidationError("--soak needs a positive whole number") }
        }
    }

    /// `mdoc-benchmark keys`: key operations in a token or TPM beside a software key.
    struct Keys: ParsableCommand {
        /// The environment variable the token's PIN is read from.
        static let pinVariable = "MDOC_TOKEN_PIN"

        static let configuration = CommandConfiguration(
            abstract: "Time ECDSA and ECDH with a P-256 key in a PKCS#11 token or a TPM beside a software key.",
            discussion: """
                Signs (ECDSA P-256, SHA-256, a message the size of DeviceAuthenticationBytes) and \
                agrees keys (ECDH P-256 with a reader's ephemeral key) with each key named, inside \
                its token or TPM, and with a software key in OpenSSL's default provider measured \
                in the same run, and prints each key's median and 90th percentile and its ratio to \
                the software key's. The token's PIN is read from MDOC_TOKEN_PIN. Every signature \
                is verified and every shared secret compared with the other side's, outside the \
                timed calls. scripts/benchmark-keys.sh makes a SoftHSM token and a software TPM \
                with a key each and runs this.

                Examples:
                  MDOC_TOKEN_PIN=... mdoc-benchmark keys \\
                    --pkcs11-uri 'pkcs11:token=wallet;object=device;type=private' \\
                    --module /usr/lib/x86_64-linux-gnu/opensc-pkcs11.so
                  mdoc-benchmark keys --tpm2-key-file device.tss2.pem --tcti device:/dev/tpmrm0
                  bash scripts/benchmark-keys.sh

                Exit codes: 0 measured; 1 a key could not be loaded or an operation gave a wrong \
                result; 64 usage error.
                """
        )

        @Option(name: .customLong("pkcs11-uri"), help: ArgumentHelp("The PKCS#11 URI (RFC 7512) of a P-256 private key that signs and derives.",
                                                                     valueName: "uri"))
        var pkcs11URI: String?

        @Option(help: ArgumentHelp("The PKCS#11 module of the token of --pkcs11-uri.", valueName: "path"), completion: .file())
        var module: String?

        @Option(name: .customLong("tpm2-key-file"), help: ArgumentHelp("A \"TSS2 PRIVATE KEY\" blob of a P-256 key of the TPM of --tcti.",
                                                                        valueName: "path"), completion: .file())
        var tpm2KeyFile: String?

        @Option(help: ArgumentHelp("The TSS2 TCTI that reaches the TPM of --tpm2-key-file.", valueName: "tcti"))
        var tcti = "device:/dev/tpmrm0"

        @Option(help: ArgumentHelp("Time exactly this many calls of each operation (default: at least 200 calls and 0.3 s).",
                                   valueName: "N"))
        var iterations: Int?

        @Flag(help: "Print the figures as JSON.")
        var json = false

        func validate() throws {
            if let iterations, iterations <= 0 { throw ValidationError("--iterations needs a positive whole number") }
            guard (pkcs11URI == nil) == (module == nil) else { throw ValidationError("--pkcs11-uri and --module go together") }
            guard pkcs11URI != nil || tpm2KeyFile != nil else {
                throw ValidationError("name a key: --pkcs11-uri with --module, or --tpm2-key-file (scripts/benchmark-keys.sh makes both)")
            }
        }
    }

    /// `mdoc-benchmark link`: whole sessions between two LE hosts over Bumble virtual controllers.
    struct Link: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Time sessions presenting the demo mDL over two Bumble virtual controllers.",
            discussion: """
                Runs holder and reader LE hosts of this toolkit through two linked Bumble \
                virtual controllers in each 18013-5 BLE mode and reports ATT PDUs against the \
                minimum, payload over ACL octets, and link, transfer and session times beside \
                AES-GCM and key agreement on the same messages. Needs Bumble \
                (pip install -r Tests/Interop/requirements.txt).

                Example:
                  swift run -c release mdoc-benchmark link --sessions 20

                Exit codes: 0 measured; 1 a fixture or the controllers were missing, or a session \
                failed; 64 usage error.
                """
        )

        @Option(help: ArgumentHelp("Sessions per BLE mode.", valueName: "N"))
        var sessions = 10

        @Flag(help: "Print the figures as JSON.")
        var json = false

        func validate() throws {
            guard sessions > 0 else {
                throw ValidationError("--sessions needs a positive whole number")
            }
        }
    }

    /// `mdoc-benchmark nfc`: sessions by tap and NFC retrieval in this process.
    struct NFC: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "nfc",
            abstract: "Time the demo mDL presented by tap and NFC retrieval in this process, beside the session's state machines alone.",
            discussion: """
                Presents the demo mDL (every element) by tap, static handover (ISO/IEC 18013-5 \
                8.2.2.1), and retrieves it over NFC (8.3.3.1.2): the holder's card (the NDEF \
                Type 4 Tag and the data retrieval application) and the reader's tag reader and \
                session in this process, each command APDU carried to the card in turn, with \
                extended APDUs and with short ones only (chaining and GET RESPONSE). Reports the \
                command APDUs of the tap and of the retrieval, and the times of the tap, the \
                retrieval and both, beside the same session through the state machines with no \
                transport, measured in the same run.

                Example:
                  swift run -c release mdoc-benchmark nfc --sessions 50

                Exit codes: 0 measured; 1 a session failed or did not verify; 64 usage error.
                """
        )

        @Option(help: ArgumentHelp("Sessions per APDU size.", valueName: "N"))
        var sessions = 20

        @Flag(help: "Print the figures as JSON.")
        var json = false

        func validate() throws {
            guard sessions > 0 else {
                throw ValidationError("--sessions needs a positive whole number")
            }
        }
    }
}
