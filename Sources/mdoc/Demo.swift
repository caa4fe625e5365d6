import ArgumentParser
import Foundation
import MdocTerminal

/// `mdoc demo`: the main job end to end, with the real programs as separate processes.
struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Present a demo mDL from mdoc-holder to mdoc-reader over the sim transport.",
        discussion: """
            Issues the demo PKI and credential into --dir when they are missing (mdoc-issuer), \
            starts `mdoc-holder present --yes`, which draws the engagement QR code, then runs \
            `mdoc-reader request` on the holder's mdoc: URI with reader authentication, and \
            shows the verified result. The programs are the ones installed next to `mdoc`. The \
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

    func run() throws {
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

        let holder = Process()
        holder.executableURL = Self.program("mdoc-holder")
        holder.arguments = [
            "present", "--credential", credential, "--yes", "--ble-mode", bleMode,
            "--trust-readers", "\(dir)/reader-root.pem", "--timeout", "30",
        ]
        let holderOutput = Pipe()
        holder.standardOutput = holderOutput
        try start(holder)
        defer {
            if holder.isRunning { holder.terminate() }
        }

        // Pass the holder's output through (the QR code) until its mdoc: URI line.
        let lines = LineReader(holderOutput.fileHandleForReading)
        var uri: String? = nil
        while uri == nil, let line = lines.next() {
            ProgramOutput.standardOutput.writeLine(TerminalText(lines: line))
            if line.hasPrefix("mdoc:") { uri = line }
        }
        guard let uri else {
            holder.waitUntilExit()
            throw ProgramFailure(.sessionFailed, "mdoc-holder ended without an engagement (status \(holder.terminationStatus))")
        }
        let relay = Thread {
            while let line = lines.next() { ProgramOutput.standardOutput.writeLine(TerminalText(lines: line)) }
        }
        relay.start()

        let reader = Process()
        reader.executableURL = Self.program("mdoc-reader")
        reader.arguments = [
            "request", uri, "--preset", preset, "--ble-mode", bleMode, "--trust", "\(dir)/iaca.pem",
            "--reader-cert", "\(dir)/reader.pem", "--reader-key", "\(dir)/reader-key.pem",
        ]
        try start(reader)
        reader.waitUntilExit()
        holder.waitUntilExit()
        guard reader.terminationStatus == 0 else {
            throw ProgramFailure(
                ExitStatus(rawValue: reader.terminationStatus) ?? .sessionFailed,
                "mdoc-reader ended with status \(reader.terminationStatus)")
        }
        guard holder.terminationStatus == 0 else {
            throw ProgramFailure(.sessionFailed, "mdoc-holder ended with status \(holder.terminationStatus)")
        }
    }

    /// Starts `process`, whose program must be installed next to this one; a failure names the
    /// path and the system's reason.
    private func start(_ process: Process) throws(ProgramFailure) {
        let path = process.executableURL?.path ?? ""
        guard access(path, X_OK) == 0 else {
            throw ProgramFailure(
                .sessionFailed, "cannot start \(path): \(String(cString: strerror(errno))) (mdoc runs the programs installed next to it)")
        }
        do {
            try process.run()
        } catch {
            throw ProgramFailure(.sessionFailed, "cannot start \(path)")
        }
    }

    /// Runs a program to completion, failing the demo when it fails.
    private func step(_ what: String, _ program: String, _ arguments: [String]) throws(ProgramFailure) {
        ProgramOutput.standardError.write("mdoc: \(what)\n")
        let process = Process()
        process.executableURL = Self.program(program)
        process.arguments = arguments
        try start(process)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ProgramFailure(ExitStatus(rawValue: process.terminationStatus) ?? .badTrustInput, "\(program) failed")
        }
    }

    /// The demo mDL's issuer data: `--data`, else the repository's sample when run in a checkout,
    /// else the sample `make install` puts in `PREFIX/share/swift-mdoc/Samples`.
    private var dataFile: String {
        if let data { return data }
        if FileManager.default.fileExists(atPath: "Samples/mdl.json") { return "Samples/mdl.json" }
        return Self.program("../share/swift-mdoc/Samples/mdl.json").standardizedFileURL.path
    }

    /// A program installed next to this one.
    private static func program(_ name: String) -> URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent(name)
    }
}

/// Lines from a file handle, read as they arrive.
private final class LineReader: @unchecked Sendable {
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private let lock = NSLock()

    init(_ handle: FileHandle) {
        self.handle = handle
    }

    /// The next line without its newline, or nil at the end of the output.
    func next() -> String? {
        lock.lock()
        defer { lock.unlock() }
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            let chunk = handle.availableData
            if chunk.isEmpty {
                guard !buffer.isEmpty else { return nil }
                let line = String(decoding: buffer, as: UTF8.self)
                buffer.removeAll()
                return line
            }
            buffer.append(contentsOf: chunk)
        }
    }
}
