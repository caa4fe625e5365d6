import ArgumentParser
import Foundation
import MdocTerminal

/// `mdoc demo`: the main job end to end, with the real programs as separate processes.
struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Present a demo mDL from mdoc-holder to mdoc-reader over the sim transport.",
        discussion: """
            Issues the demo PKI and credential into --dir when they are missing (mdoc-issuer), \
            gives the credential mode 0600 when it is readable by others (a git checkout makes \
            it 0644; mdoc-holder refuses a credential others can read), starts `mdoc-holder present --yes`, which draws the engagement QR code, then runs \
            `mdoc-reader request` on the holder's mdoc: URI with reader authentication, and \
            shows the verified result. The programs are the ones installed next to `mdoc`.

            Example:
              mdoc demo --preset full

            Exit codes: those of `mdoc-reader request` (0 verified).
            """
    )

    @Option(help: "The folder of the demo PKI and credential (made when missing).")
    var dir = "Certs/demo"

    @Option(help: ArgumentHelp(
        "The data of the demo mDL, used when the credential must be issued (default: Samples/mdl.json in the working directory, else the copy installed with the programs).",
        valueName: "file"))
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
        try makePrivate(credential)

        let holder = Process()
        holder.executableURL = Self.program("mdoc-holder")
        holder.arguments = [
            "present", "--credential", credential, "--yes", "--ble-mode", bleMode,
            "--trust-readers", "\(dir)/reader-root.pem", "--timeout", "30",
        ]
        let holderOutput = Pipe()
        holder.standardOutput = holderOutput
        do {
            try holder.run()
        } catch {
            throw ProgramFailure(.sessionFailed, "cannot start mdoc-holder: \(error)")
        }
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
        do {
            try reader.run()
        } catch {
            throw ProgramFailure(.sessionFailed, "cannot start mdoc-reader: \(error)")
        }
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

    /// Gives the credential at `path` mode 0600 when group or others may read it:
    /// `mdoc-holder` refuses a credential (it holds the device private key) that others can read,
    /// and git keeps no mode but 0644 and 0755, so the committed demo credential arrives 0644.
    /// It is public test material; a credential of your own is written 0600 by `mdoc-issuer`.
    private func makePrivate(_ path: String) throws(ProgramFailure) {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw ProgramFailure(.badTrustInput, "\(path): cannot read its mode: \(String(cString: strerror(errno)))")
        }
        guard status.st_mode & InputSource.privateFileForbiddenMode != 0 else { return }
        guard chmod(path, 0o600) == 0 else {
            throw ProgramFailure(.badTrustInput, "\(path): cannot set mode 0600: \(String(cString: strerror(errno)))")
        }
        ProgramOutput.standardError.write("mdoc: \(path) set to mode 0600, as mdoc-holder requires of a credential\n")
    }

    /// Runs a program to completion, failing the demo when it fails.
    private func step(_ what: String, _ program: String, _ arguments: [String]) throws(ProgramFailure) {
        ProgramOutput.standardError.write("mdoc: \(what)\n")
        let process = Process()
        process.executableURL = Self.program(program)
        process.arguments = arguments
        do {
            try process.run()
        } catch {
            throw ProgramFailure(.sessionFailed, "cannot start \(program): \(error)")
        }
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
