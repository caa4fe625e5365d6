import Foundation
import MdocPosix
import MdocTestSupport

/// A folder with one token file and, when asked, a test CA's certificate for 127.0.0.1 with its
/// key (made with `openssl req`, EC P-256), and the status list server on it.
final class StatusListFixture: Sendable {
    /// The token file's name under `/lists/`.
    static let name = "token.cwt"
    /// The token file's bytes: every byte value, so a fetch that changed one would show.
    static let token: [UInt8] = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    /// The media type of a Status List Token (draft-ietf-oauth-status-list section 8.1).
    static let type = "application/statuslist+cwt"

    let directory: String
    let server: StatusListServer

    /// The certificate the TLS port presents, which is its own CA.
    var certificate: String { directory + "/cert.pem" }

    init(tls: Bool = false) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mdoc-http-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data(Self.token).write(to: URL(fileURLWithPath: directory + "/" + Self.name))
        let files = tls ? try StatusListServer.makeTestCertificate(in: directory) : nil
        self.directory = directory
        server = try StatusListServer(directory: directory, tls: files)
    }

    /// Stops the server and removes the folder; whether the server ended.
    func stop() -> Bool {
        server.stop()
        try? FileManager.default.removeItem(atPath: directory)
        return !server.isRunning
    }
}
