import Foundation
import HummingbirdTesting
import Logging
import MdocCrypto
import NIOCore
import OnlineVerifier
import Synchronization

/// The repository the example lives in: its demo certificates and its built programs.
enum Repository {
    /// The repository's root: Examples/online-verifier/Tests/OnlineVerifierTests/ up from this file.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    /// The demo reader's key and certificate.
    static var demoReader: (key: PrivateKey, chain: [Certificate]) {
        get throws {
            (try PrivateKey(pemRepresentation: String(contentsOfFile: "\(root)/Certs/demo/reader-key.pem", encoding: .utf8)),
             try Certificate.certificates(pemEncoded: String(contentsOfFile: "\(root)/Certs/demo/reader.pem", encoding: .utf8)))
        }
    }
    /// The demo reader's root.
    static var demoReaderRoot: [Certificate] {
        get throws { try Certificate.certificates(pemEncoded: String(contentsOfFile: "\(root)/Certs/demo/reader-root.pem", encoding: .utf8)) }
    }
    /// The demo IACA.
    static var demoIACA: [Certificate] {
        get throws { try Certificate.certificates(pemEncoded: String(contentsOfFile: "\(root)/Certs/demo/iaca.pem", encoding: .utf8)) }
    }
}

/// A clock a test moves forward, so that an expiry is passed without sleeping.
final class TestClock: Sendable {
    private let offset = Mutex<TimeInterval>(0)

    /// Now, plus how far the clock was moved.
    func now() -> Date {
        Date().addingTimeInterval(offset.withLock { $0 })
    }

    /// Moves the clock `seconds` forward.
    func advance(by seconds: TimeInterval) {
        offset.withLock { $0 += seconds }
    }
}

/// A `VerifierServer` running in this process on a free loopback port, reached over real HTTP
/// (HummingbirdTesting's client, on NIO sockets).
struct RunningVerifier {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// An HTTP answer: its status and its body as JSON (nil when it is not).
    struct Answer {
        let status: Int
        let body: [UInt8]
        var json: [String: Any]? {
            (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
        }
        /// `error` of an error object.
        var error: String? { json?["error"] as? String }
    }

    let port: Int
    private let task: Task<Void, any Error>

    /// The servers' log: critical messages only, since a test stops its server by cancelling
    /// it, which Hummingbird logs as errors ("Waiting on child channel: CancellationError").
    static let logger: Logger = {
        var logger = Logger(label: "online-verifier-test")
        logger.logLevel = .critical
        return logger
    }()

    /// Starts a server on `store`, its time read from `clock`, signing its requests with
    /// `readerAuthentication`, reached by wallets at `publicURL`.
    static func start(
        store: StoreLocation, clock: TestClock = TestClock(), readerAuthentication: (key: PrivateKey, chain: [Certificate])? = nil,
        publicURL: String? = nil
    ) async throws -> RunningVerifier {
        let server = VerifierServer(
            host: "127.0.0.1", port: 0, storeLocation: store, trustAnchors: try Repository.demoIACA,
            readerAuthentication: readerAuthentication, publicURL: publicURL,
            logger: Self.logger, now: { clock.now() })
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let task = Task {
            defer { continuation.finish() }
            try await server.run { port in continuation.yield(port) }
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            let result = await task.result
            throw Failure(description: "the verifier ended before it listened: \(result)")
        }
        return RunningVerifier(port: port, task: task)
    }

    /// Runs `body` with a server started on `store` (``start(store:clock:readerAuthentication:publicURL:)``),
    /// then stops it, whether `body` returned or threw.
    static func with<T>(
        store: StoreLocation, clock: TestClock = TestClock(), readerAuthentication: (key: PrivateKey, chain: [Certificate])? = nil,
        publicURL: String? = nil, _ body: (RunningVerifier) async throws -> T
    ) async throws -> T {
        let verifier = try await start(store: store, clock: clock, readerAuthentication: readerAuthentication, publicURL: publicURL)
        do {
            let value = try await body(verifier)
            await verifier.stop()
            return value
        } catch {
            await verifier.stop()
            throw error
        }
    }

    /// Stops the server and waits for it to end.
    func stop() async {
        task.cancel()
        _ = await task.result
    }

    /// `POST path` with `body`.
    func post(_ path: String, _ body: [UInt8]) async throws -> Answer {
        try await execute(TestClient.Request(path, method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(bytes: body)))
    }

    /// `POST path` with the JSON of `object`.
    func post(_ path: String, json object: Any) async throws -> Answer {
        try await post(path, Array(try JSONSerialization.data(withJSONObject: object)))
    }

    /// `GET path`.
    func get(_ path: String) async throws -> (answer: Answer, contentType: String?) {
        let response = try await TestClient.withClient(host: "127.0.0.1", port: port) { try await $0.execute(TestClient.Request(path, method: .get)) }
        return (Answer(status: response.status.code, body: response.body.map { Array(buffer: $0) } ?? []), response.headers[.contentType])
    }

    private func execute(_ request: TestClient.Request) async throws -> Answer {
        let response = try await TestClient.withClient(host: "127.0.0.1", port: port) { try await $0.execute(request) }
        return Answer(status: response.status.code, body: response.body.map { Array(buffer: $0) } ?? [])
    }

    /// Makes an org-iso-mdoc request for `origin` asking the mDL's family_name and
    /// age_over_18; returns its id and its request object's JSON.
    func makeRequest(origin: String, validity: Int? = nil) async throws -> (id: String, request: [UInt8]) {
        var body: [String: Any] = ["origin": origin]
        if let validity { body["validity"] = validity }
        let made = try await makeRequest(body)
        return (made.id, made.request)
    }

    /// Makes a request of `body`'s members, asking the mDL's family_name and age_over_18; returns
    /// its id, its request object's JSON and the whole 201 answer.
    func makeRequest(_ body: [String: Any]) async throws -> (id: String, request: [UInt8], answer: [String: Any]) {
        var body = body
        body["docType"] = "org.iso.18013.5.1.mDL"
        body["elements"] = ["org.iso.18013.5.1": ["family_name", "age_over_18"]]
        let answer = try await post("/requests", json: body)
        guard answer.status == 201, let json = answer.json, let id = json["id"] as? String, let request = json["request"] else {
            throw Failure(description: "POST /requests answered \(answer.status): \(String(decoding: answer.body, as: UTF8.self))")
        }
        return (id, Array(try JSONSerialization.data(withJSONObject: request)), json)
    }
}

/// The wallet: the toolkit's `mdoc-holder respond --yes` with the demo mDL, built in the
/// repository's `.build/debug` (`swift build` there) or found in `MDOC_BIN`.
enum Holder {
    /// The wallet's answer to `request` (the request object's JSON) for `origin` (none for an
    /// OpenID4VP request in `direct_post` or `direct_post.jwt`).
    static func respond(to request: [UInt8], origin: String?) throws -> [UInt8] {
        let binaries = ProcessInfo.processInfo.environment["MDOC_BIN"] ?? "\(Repository.root)/.build/debug"
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("online-verifier-holder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: work) }
        try Data(request).write(to: work.appendingPathComponent("request.json"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "\(binaries)/mdoc-holder")
        process.arguments = [
            "respond", "--request", work.appendingPathComponent("request.json").path,
            "--credential", "\(Repository.root)/Certs/demo/mdl.mdoc", "--yes", "--out", work.appendingPathComponent("response.json").path,
        ] + (origin.map { ["--origin", $0] } ?? [])
        // A home of its own: no stored credential or reader trust of the machine's.
        process.environment = ["HOME": work.path, "PATH": "/usr/bin:/bin"]
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        guard FileManager.default.isExecutableFile(atPath: "\(binaries)/mdoc-holder") else {
            throw RunningVerifier.Failure(description: "no \(binaries)/mdoc-holder: build the repository's programs first (swift build)")
        }
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw RunningVerifier.Failure(description: "mdoc-holder respond ended with \(process.terminationStatus): \(String(decoding: message, as: UTF8.self))")
        }
        return Array(try Data(contentsOf: work.appendingPathComponent("response.json")))
    }
}
