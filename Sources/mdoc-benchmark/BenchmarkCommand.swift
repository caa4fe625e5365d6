import ArgumentParser
import MdocTerminal

/// `mdoc-benchmark`'s command line: what main.swift runs, parsed by swift-argument-parser so that
/// the program has `--help`, `--version`, a manual and shell completions like the others.
struct MdocBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mdoc-benchmark",
        abstract: "Time DeviceResponse verification and BLE sessions beside the OpenSSL work they need.",
        discussion: """
            Needs a swift-mdoc checkout: the Annex D vectors (Vectors/) and the demo credential \
            (Certs/demo/) are read from the sources the program was built from, or from \
            MDOC_VECTORS_DIR. Build it in release mode for meaningful figures.
            """,
        version: ToolVersion.current,
        subcommands: [Verification.self, Link.self],
        defaultSubcommand: Verification.self
    )

    /// `mdoc-benchmark verify`: decoding and verification of the Annex D DeviceResponse.
    struct Verification: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Time decoding and verifying the Annex D DeviceResponse (the default).",
            discussion: """
                Prints the median and 90th percentile of decoding and fully verifying the ISO/IEC \
                18013-5 Annex D DeviceResponse, next to the OpenSSL primitives verification \
                cannot avoid (two ECDSA P-256 verifications, six SHA-256 digests, ECDH, HKDF, \
                HMAC), measured in the same run, and their ratio.

                With --soak N it measures nothing of that: it verifies the response N times, each \
                with a new verifier, and prints resident memory and open descriptors at the start \
                and after each tenth of the run (scripts/soak.sh).

                Examples:
                  swift run -c release mdoc-benchmark verify --iterations 2000 --json
                  swift run -c release mdoc-benchmark --soak 10000

                Exit codes: 0 measured; 1 a fixture was missing or an operation gave a wrong \
                result; 64 usage error.
                """
        )

        @Option(help: ArgumentHelp("Time exactly this many calls of each operation (default: at least 200 calls and 0.3 s).",
                                   valueName: "N"))
        var iterations: Int?

        @Flag(help: "Print the figures as JSON.")
        var json = false

        @Option(help: ArgumentHelp("Instead of timing, verify N times with a new verifier each and report memory and descriptors.",
                                   valueName: "N"))
        var soak: Int?

        func validate() throws {
            if let iterations, iterations <= 0 {
                throw ValidationError("--iterations needs a positive whole number")
            }
            if let soak, soak <= 0 {
                throw ValidationError("--soak needs a positive whole number")
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
}
