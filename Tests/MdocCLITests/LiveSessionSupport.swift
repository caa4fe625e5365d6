import Foundation
import MdocTestSupport

/// One live presentation between the real `mdoc-holder` and `mdoc-reader` programs over the `sim`
/// transport, isolated from every other test by its own `MDOC_SIM_NAMESPACE`.
///
/// The holder starts in ``init(holder:holderTimeout:)`` and is waited for (or ended) by the test;
/// a holder still running when the session is released is killed by ``BackgroundProgram``.
/// Timeouts are generous because CI runs the tests in parallel on two cores.
struct LiveSession {
    /// Seconds each program waits for its peer and for each message (`--timeout`).
    static let programTimeout = 60
    /// Seconds a test waits for a program to end before killing it.
    static let waitTimeout = TimeInterval(90 * TimeoutScale.factor)

    /// The environment both programs run with: the session's own sim namespace.
    let environment: [String: String]
    /// The running `mdoc-holder present`.
    let holder: BackgroundProgram
    /// The engagement the holder printed.
    let uri: String

    /// The committed demo credentials, which the tests present as git checks them out (mode
    /// 0644: their device keys are published, ``PublishedDeviceKeys``).
    static let demoCredentials = ["Certs/demo/mdl.mdoc", "Certs/demo/pid.mdoc"]

    /// Starts `mdoc-holder present ARGUMENTS --no-qr --timeout N` and waits for its mdoc: URI.
    init(holder arguments: [String], holderTimeout: Int = LiveSession.programTimeout) async throws {
        environment = ["MDOC_SIM_NAMESPACE": "e2e-\(UUID().uuidString)"]
        holder = try BackgroundProgram(
            "mdoc-holder", ["present"] + arguments + ["--no-qr", "--timeout", "\(holderTimeout)"],
            environment: environment)
        guard let uri = await holder.firstLine(startingWith: "mdoc:", timeout: Self.waitTimeout) else {
            let result = await holder.terminate()
            throw LiveSessionError(
                "mdoc-holder printed no mdoc: URI (status \(result.status)); stderr: \(result.standardError)")
        }
        self.uri = uri
    }

    /// Runs `mdoc-reader request URI ARGUMENTS --timeout N` to its end.
    func request(_ arguments: [String], readerTimeout: Int = LiveSession.programTimeout) async throws -> ProgramRunner.Result {
        try await reader(["request", uri] + arguments + ["--timeout", "\(readerTimeout)"])
    }

    /// Runs `mdoc-reader ARGUMENTS` (exactly these) in the session's namespace.
    func reader(_ arguments: [String]) async throws -> ProgramRunner.Result {
        try await ProgramRunner.run("mdoc-reader", arguments, timeout: Self.waitTimeout, environment: environment)
    }

    /// Starts `mdoc-reader request URI ARGUMENTS --timeout N` beside the test.
    func startReader(_ arguments: [String], readerTimeout: Int = LiveSession.programTimeout) throws -> BackgroundProgram {
        try BackgroundProgram(
            "mdoc-reader", ["request", uri] + arguments + ["--timeout", "\(readerTimeout)"], environment: environment)
    }

    /// Waits for the holder to end after `reader` ended; a holder the reader never connected
    /// to is ended at once instead of waiting for its timeout, so a failing test fails fast.
    func holderResult(after reader: ProgramRunner.Result) async -> ProgramRunner.Result {
        if !reader.standardError.contains("mdoc-reader: connected") {
            return await holder.terminate()
        }
        return await holder.wait(timeout: Self.waitTimeout)
    }

    /// A new empty temporary folder; the caller removes it.
    static func temporaryFolder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mdoc-e2e-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Writes `text` to `path`.
    static func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// Makes an EC private key on `curve` (an OpenSSL name such as P-256) with the OpenSSL
    /// command line into `path` (PKCS#8 PEM, mode 0600).
    static func makeOpenSSLKey(curve: String, at path: String) async throws {
        let result = try await ProgramRunner.runTool(
            "openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:\(curve)", "-out", path])
        guard result.status == 0 else {
            throw LiveSessionError(
                "`openssl genpkey` failed with status \(result.status) (the OpenSSL command line must be installed): \(result.standardError)")
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
    }
}

/// A live-session test could not be set up.
struct LiveSessionError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// The `--json` output of `mdoc-reader request`.
struct ReaderJSON {
    /// The whole object.
    let object: [String: Any]

    init(_ text: String) throws {
        let parsed = try? JSONSerialization.jsonObject(with: Data(text.utf8))
        guard let object = parsed as? [String: Any] else {
            throw LiveSessionError("mdoc-reader --json printed no JSON object: \"\(text)\"")
        }
        self.object = object
    }

    /// The overall outcome, such as `verified`.
    var outcome: String? { object["outcome"] as? String }

    /// The returned documents.
    var documents: [[String: Any]] { object["documents"] as? [[String: Any]] ?? [] }

    /// The first document of `docType`.
    func document(_ docType: String) -> [String: Any]? {
        documents.first { $0["docType"] as? String == docType }
    }

    /// The element values of `docType` in `nameSpace`, by identifier (empty when none).
    func values(_ docType: String, _ nameSpace: String) -> [String: Any] {
        let nameSpaces = document(docType)?["nameSpaces"] as? [String: Any]
        return nameSpaces?[nameSpace] as? [String: Any] ?? [:]
    }
}
