import MdocBLE
import MdocCBOR
import MdocCrypto
import MdocFiles
import MdocModel
import MdocNFC
import MdocPresentation
import MdocSession
import MdocText

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension SessionCapture {
    /// The file of DeviceEngagement, the bytes inside DeviceEngagementBytes.
    public static let engagementFileName = "engagement.cbor"
    /// The file of the engagement's `mdoc:` URI, one line.
    public static let engagementURIFileName = "engagement-uri.txt"
    /// The file of SessionTranscriptBytes.
    public static let sessionTranscriptFileName = "session-transcript.cbor"
    /// The file of the ephemeral private key, PEM, mode 0600.
    public static let ephemeralKeyFileName = "ephemeral-key.pem"
    /// The file of the verification report, the JSON `--json` prints.
    public static let reportFileName = "report.json"
    /// The file of the APDU trace (`APDUTrace`'s text form), when the session used NFC.
    public static let apduTraceFileName = "apdus.txt"

    /// Checks, before a session, that `path` can take a capture: it does not exist and its
    /// folder can be written, or it is an empty directory. `option` starts the message.
    public static func checkWritable(directory path: String, option: String) throws(ProgramFailure) {
        switch DirectoryListing.kind(of: path) {
        case .missing:
            try OutputFile.checkWritable(path, option: option)
        case .file:
            throw ProgramFailure(.badTrustInput, "\(option) \(path): is a file; give a directory that does not exist or is empty")
        case .folder:
            let entries: [(name: String, path: String)]
            do {
                entries = try DirectoryListing.files(in: path, limit: 0)
            } catch {
                throw ProgramFailure(.badTrustInput, "\(option) \(path): the directory is not empty; give a new or an empty one")
            }
            guard entries.isEmpty, access(path, W_OK | X_OK) == 0 else {
                throw ProgramFailure(.badTrustInput, "\(option) \(path): cannot write in the directory: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// The name of message `index` (from 0) in the directory, and of its plaintext.
    static func fileNames(of opened: OpenedMessage, index: Int) -> (message: String, plaintext: String) {
        let number = index + 1 < 10 ? "0\(index + 1)" : "\(index + 1)"
        let prefix = "\(number)-\(opened.message.direction.rawValue)"
        let structure = opened.structure == "SessionEstablishment" ? "session-establishment" : "session-data"
        let plaintext = opened.fromReader ? "device-request" : "device-response"
        return ("\(prefix)-\(structure).cbor", "\(prefix)-\(plaintext).cbor")
    }

    /// Writes the capture into the directory `path` (made with mode 0700 unless it exists, as
    /// ``checkWritable(directory:option:)`` allowed): the engagement, the transcript (when the
    /// session has one), the ephemeral key, each message and its plaintext, the report and the
    /// index last, every file new and mode 0600.
    public func save(in path: String) throws(ProgramFailure) {
        try OutputFile.makeDirectory(path)
        func file(_ name: String) -> String { path.hasSuffix("/") ? path + name : path + "/" + name }
        try OutputFile.create(deviceEngagement, at: file(Self.engagementFileName), mode: OutputFile.privateMode, replacing: false)
        try OutputFile.create(
            Array((engagementURI + "\n").utf8), at: file(Self.engagementURIFileName), mode: OutputFile.privateMode, replacing: false)
        if let sessionTranscriptBytes {
            try OutputFile.create(
                sessionTranscriptBytes, at: file(Self.sessionTranscriptFileName), mode: OutputFile.privateMode, replacing: false)
        }
        try OutputFile.create(
            Array(ephemeralKey.pemRepresentation.utf8), at: file(Self.ephemeralKeyFileName), mode: OutputFile.privateMode,
            replacing: false)
        var entries: [JSONValue] = []
        for (index, opened) in openedMessages().enumerated() {
            let names = Self.fileNames(of: opened, index: index)
            try OutputFile.create(opened.message.bytes, at: file(names.message), mode: OutputFile.privateMode, replacing: false)
            var members: [(String, JSONValue)] = [
                ("file", .string(names.message)),
                ("direction", .string(opened.message.direction.rawValue)),
                ("from", .string(opened.fromReader ? "reader" : "mdoc")),
                ("structure", .string(opened.structure)),
                ("time", .string(TDate(opened.message.time).text)),
                ("bytes", .int(Int64(opened.message.bytes.count))),
                ("chunks", sentChunks(opened.message).map { .int(Int64($0)) } ?? .null),
                ("status", opened.status.map { .int(Int64(clamping: $0)) } ?? .null),
            ]
            if let plaintext = opened.plaintext {
                try OutputFile.create(plaintext, at: file(names.plaintext), mode: OutputFile.privateMode, replacing: false)
                members.append(("plaintext", .object([
                    ("file", .string(names.plaintext)), ("structure", .string(opened.plaintextStructure)),
                    ("bytes", .int(Int64(plaintext.count))),
                ])))
            } else {
                members.append(("plaintext", .null))
            }
            if let problem = opened.problem { members.append(("problem", .string(problem))) }
            entries.append(.object(members))
        }
        if let report {
            try OutputFile.create(
                Array((report.serialized(pretty: true) + "\n").utf8), at: file(Self.reportFileName), mode: OutputFile.privateMode,
                replacing: false)
        }
        if let apduTrace {
            try OutputFile.create(
                Array(apduTrace.text.utf8), at: file(Self.apduTraceFileName), mode: OutputFile.privateMode, replacing: false)
        }
        let index = JSONValue.object([
            ("format", .string(Self.format)),
            ("version", .int(Int64(Self.version))),
            ("role", .string(role == .reader ? "reader" : "mdoc")),
            ("program", .string(program)),
            ("started", .string(TDate(started).text)),
            ("ended", .string(TDate(ended).text)),
            ("transport", .string(transport)),
            ("bleMode", mode.map { .string($0.rawValue) } ?? .null),
            ("mtu", mtu.map { .int(Int64($0)) } ?? .null),
            ("engagement", .string(Self.engagementFileName)),
            ("engagementURI", .string(Self.engagementURIFileName)),
            ("sessionTranscript", sessionTranscriptBytes == nil ? .null : .string(Self.sessionTranscriptFileName)),
            ("ephemeralKey", .string(Self.ephemeralKeyFileName)),
            ("messages", .array(entries)),
            ("outcome", .string(outcome)),
            ("verificationTime", verificationTime.map { .string(TDate($0).text) } ?? .null),
            ("report", report == nil ? .null : .string(Self.reportFileName)),
            ("apduTrace", apduTrace == nil ? .null : .string(Self.apduTraceFileName)),
            ("exitStatus", .int(Int64(exitStatus))),
        ])
        try OutputFile.create(
            Array((index.serialized(pretty: true) + "\n").utf8), at: file(Self.indexFileName), mode: OutputFile.privateMode,
            replacing: false)
    }
}
