import Foundation
@testable import MdocCapture
import MdocText
import Testing

/// The bounds on what a capture directory can make `SessionCapture` read: each on both sides.
@Suite("Session capture limits")
struct SessionCaptureLimitTests {
    /// A new empty folder; the caller removes it.
    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mdoc-capture-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// An index naming `count` messages and files that do not exist.
    static func index(messages count: Int) -> String {
        let message = #"{"file": "01-sent-session-establishment.cbor", "direction": "sent", "time": "2026-01-01T00:00:00Z"}"#
        return """
            {"format": "swift-mdoc session capture", "version": 1, "role": "reader", "program": "mdoc-reader",
             "started": "2026-01-01T00:00:00Z", "ended": "2026-01-01T00:00:00Z", "transport": "sim",
             "engagement": "engagement.cbor", "engagementURI": "engagement-uri.txt", "sessionTranscript": "session-transcript.cbor",
             "ephemeralKey": "ephemeral-key.pem", "outcome": "", "exitStatus": 0,
             "messages": [\(Array(repeating: message, count: count).joined(separator: ","))]}
            """
    }

    @Test("a file of maximumFileSize bytes is read, one byte more is refused")
    func fileSize() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(count: SessionCapture.maximumFileSize).write(to: URL(fileURLWithPath: folder + "/at.cbor"))
        try Data(count: SessionCapture.maximumFileSize + 1).write(to: URL(fileURLWithPath: folder + "/over.cbor"))
        #expect(try SessionCapture.readFile("at.cbor", in: folder).count == SessionCapture.maximumFileSize)
        let error = #expect(throws: SessionCaptureError.self) { try SessionCapture.readFile("over.cbor", in: folder) }
        #expect(error?.code == .tooLarge)
        #expect(error?.file == "over.cbor")
    }

    @Test("an index of maximumMessageCount messages is read on, one more is refused")
    func messageCount() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.index(messages: SessionCapture.maximumMessageCount).write(toFile: folder + "/index.json", atomically: true, encoding: .utf8)
        let atLimit = #expect(throws: SessionCaptureError.self) { try SessionCapture(directory: folder) }
        // Read on to the files it names: the first, the key, is missing.
        #expect(atLimit?.code == .unreadable)
        #expect(atLimit?.file == "ephemeral-key.pem")
        try Self.index(messages: SessionCapture.maximumMessageCount + 1).write(toFile: folder + "/index.json", atomically: true, encoding: .utf8)
        let over = #expect(throws: SessionCaptureError.self) { try SessionCapture(directory: folder) }
        #expect(over?.code == .tooManyMessages)
        #expect(over?.file == "index.json")
    }

    @Test("file names in the index stay in the directory", arguments: ["../index.json", "/etc/passwd", ".hidden", "", "a/b"])
    func fileNames(name: String) throws {
        let error = #expect(throws: SessionCaptureError.self) { try SessionCapture.readFile(name, in: "/tmp") }
        #expect(error?.code == .badIndex)
    }

    @Test("an index of another format or version is refused")
    func otherVersion() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.index(messages: 0).replacingOccurrences(of: #""version": 1"#, with: #""version": 2"#)
            .write(toFile: folder + "/index.json", atomically: true, encoding: .utf8)
        let error = #expect(throws: SessionCaptureError.self) { try SessionCapture(directory: folder) }
        #expect(error?.code == .badIndex)
        #expect(error?.reason.contains("version 2") == true)
    }
}
