import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import MdocCommandLine
import MdocConsent
import MdocFiles
import MdocPosix
import MdocTerminal
import MdocText

/// `mdoc demo`: the main job end to end, with the real programs as separate processes.
struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Present a demo mDL from mdoc-holder to mdoc-reader over the sim transport.",
        discussion: """
            Issues the demo PKI and credential into --dir when they are missing (mdoc-issuer), \
            starts `mdoc-holder present --yes`, which draws the engagement QR code, then runs \
            `mdoc-reader request` on the holder's mdoc: URI with reader authentication, and \
            shows the verified result. The programs are the ones installed next to `mdoc`; \
            --quiet and --verbose are handed to mdoc-holder and mdoc-reader. The \
            committed demo credential is readable by everyone in a git checkout; mdoc-holder \
            accepts it because its device key is published test material.

            Example:
              mdoc demo --preset full

            Exit codes: those of `mdoc-reader request` (0 verified).
            """
    )

    @Option(help: "The folder of the demo PKI and credential (made when missing).", completion: .directory)
    var dir = "Certs/demo"

    @Option(help: ArgumentHelp(
        "The data of the demo mDL, used when the credential must be issued (default: Samples/mdl.json in the working directory, else the copy installed with the programs).",
        valueName: "file"), completion: .file(extensions: ["json"]))
    var data: String?

    @Option(help: "What the reader asks for: age-over-18, driving or full.")
    var preset = "driving"

    @Option(name: .customLong("ble-mode"), help: "The BLE mode both sides use: peripheral or central.")
    var bleMode = "peripheral"

    @OptionGroup var verbosity: VerbosityOptions

    func run() throws {
        verbosity.apply()
        ProgramFailure.reporting(program: "mdoc") { () throws(ProgramFailure) in
            try demo()
        }
    }

    private func demo() throws(ProgramFailure) {
        let credential = "\(dir)/mdl.mdoc"
        if !FileManager.default.fileExists(atPath: "\(dir)/iaca.pem") {
            try step("making the demo PKI in \(dir)", "mdoc-issuer", ["pki", dir])
        }
        if !FileManager.default.fileExists(atPath: credential) {
            try step("issuing the demo mDL from \(dataFile)", "mdoc-issuer",
                     ["issue", "--pki", dir, "--doctype", "org.iso.18013.5.1.mDL", "--data", dataFile, "--out", credential])
        }

        let holder = try start("mdoc-holder", [
            "present", "--credential", credential, "--yes", "--ble-mode", bleMode,
            "--trust-readers", "\(dir)/reader-root.pem", "--timeout", "30",
        ] + verbosity.arguments, standardOutput: .pipe)
        defer {
            if holder.isRunning { holder.signal(SIGTERM) }
        }

        // Pass the holder's output through (the QR code) until its mdoc: URI line.
        let lines = HolderOutput(holder)
        var uri: String? = nil
        while uri == nil, let line = lines.next() {
            ProgramOutput.standardOutput.writeLine(TerminalText(lines: line))
            if line.hasPrefix("mdoc:") { uri = line }
        }
        guard let uri else {
            let status = holder.wait().status
            throw ProgramFailure(.sessionFailed, "mdoc-holder ended without an engagement (status \(status))")
        }
        do throws(SystemCall.Errno) {
            try DetachedThread.start {
                while let line = lines.next() { ProgramOutput.standardOutput.writeLine(TerminalText(lines: line)) }
            }
        } catch {
            throw ProgramFailure(.sessionFailed, "cannot pass mdoc-holder's output through: no thread (errno \(error.code))")
        }

        let reader = try start("mdoc-reader", [
            "request", uri, "--preset", preset, "--ble-mode", bleMode, "--trust", "\(dir)/iaca.pem",
            "--reader-cert", "\(dir)/reader.pem", "--reader-key", "\(dir)/reader-key.pem",
        ] + verbosity.arguments)
        let readerStatus = reader.wait().status
        let holderStatus = holder.wait().status
        guard readerStatus == 0 else {
            throw ProgramFailure(ExitStatus(rawValue: readerStatus) ?? .sessionFailed, "mdoc-reader ended with status \(readerStatus)")
        }
        guard holderStatus == 0 else {
            throw ProgramFailure(.sessionFailed, "mdoc-holder ended with status \(holderStatus)")
        }
    }

    /// Starts `program`, which must be installed next to this one, in this process's folder and
    /// environment, with no input and its standard error on this process's; a failure names the
    /// path and the system's reason.
    private func start(
        _ program: String, _ arguments: [String], standardOutput: ChildProcess.Destination = .inherited
    ) throws(ProgramFailure) -> ChildProcess {
        let path = Self.program(program)
        guard access(path, X_OK) == 0 else {
            throw ProgramFailure(
                .sessionFailed, "cannot start \(path): \(String(cString: strerror(errno))) (mdoc runs the programs installed next to it)")
        }
        do {
            let child = try ChildProcess(
                executable: path, arguments, environment: ProcessInfo.processInfo.environment,
                directory: FileManager.default.currentDirectoryPath,
                standardOutput: standardOutput, standardError: .inherited)
            child.closeInput()
            return child
        } catch {
            throw ProgramFailure(.sessionFailed, "cannot start \(path): \(error)")
        }
    }

    /// Runs a program to completion, failing the demo when it fails.
    private func step(_ what: String, _ program: String, _ arguments: [String]) throws(ProgramFailure) {
        ProgramOutput.standardError.writeProgressLine("mdoc: \(what)")
        let status = try start(program, arguments).wait().status
        guard status == 0 else {
            throw ProgramFailure(ExitStatus(rawValue: status) ?? .badTrustInput, "\(program) failed")
        }
    }

    /// The demo mDL's issuer data: `--data`, else the repository's sample when run in a checkout,
    /// else the sample `make install` puts in `PREFIX/share/swift-mdoc/Samples`.
    private var dataFile: String {
        if let data { return data }
        if FileManager.default.fileExists(atPath: "Samples/mdl.json") { return "Samples/mdl.json" }
        return URL(fileURLWithPath: Self.program("../share/swift-mdoc/Samples/mdl.json")).standardizedFileURL.path
    }

    /// A program installed next to this one.
    private static func program(_ name: String) -> String {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent(name).path
    }
}

/// The lines a child prints on its standard output pipe, read as they arrive.
private struct HolderOutput: Sendable {
    private let child: ChildProcess
    private let lines: InputLines
    private let cancellation = InputLines.Cancellation()

    init(_ child: ChildProcess) {
        self.child = child
        lines = InputLines(fileDescriptor: child.outputDescriptor ?? -1)
    }

    /// The next line without its newline, or nil at the end of the output.
    func next() -> String? {
        lines.readLine(until: cancellation)
    }
}
