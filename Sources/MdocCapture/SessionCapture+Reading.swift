import MdocBLE
import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel
import MdocNFC
import MdocPosix
import MdocPresentation
import MdocSession

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
    /// The index as stored (docs/session-capture.md).
    private struct Index: Decodable {
        struct Plaintext: Decodable {
            var file: String
        }

        struct Message: Decodable {
            var file: String
            var direction: String
            var time: String
            var plaintext: Plaintext?
        }

        var format: String
        var version: Int
        var role: String
        var program: String
        var started: String
        var ended: String
        var transport: String
        var bleMode: String?
        var mtu: Int?
        var engagement: String
        var engagementURI: String
        var sessionTranscript: String?
        var ephemeralKey: String
        var messages: [Message]
        var outcome: String
        var verificationTime: String?
        var exitStatus: Int32
        var apduTrace: String?
    }

    /// Reads the capture in the directory `path` and checks that its files agree: the
    /// transcript holds the engagement and the SessionEstablishment's EReaderKeyBytes byte for
    /// byte, the ephemeral key is this side's key of the transcript, and every stored plaintext
    /// is what its message decrypts to. ``report`` is not read back: a replay verifies again.
    ///
    /// - Throws: ``SessionCaptureError`` naming the file: missing, larger than
    ///   ``maximumFileSize``, not what the index says, more than ``maximumMessageCount``
    ///   messages, a key others may read, or files that disagree.
    public init(directory path: String) throws(SessionCaptureError) {
        let indexBytes = try Self.readFile(Self.indexFileName, in: path)
        let index: Index
        do {
            index = try JSONDecoder().decode(Index.self, from: Data(indexBytes))
        } catch {
            throw SessionCaptureError(.badIndex, file: Self.indexFileName, "not a session capture index: \(error)")
        }
        guard index.format == Self.format, index.version == Self.version else {
            throw SessionCaptureError(
                .badIndex, file: Self.indexFileName,
                "format \"\(UntrustedText.escaped(index.format))\" version \(index.version); this toolkit reads \"\(Self.format)\" version \(Self.version)")
        }
        guard index.messages.count <= Self.maximumMessageCount else {
            throw SessionCaptureError(
                .tooManyMessages, file: Self.indexFileName,
                "\(index.messages.count) messages; a capture holds at most \(Self.maximumMessageCount)")
        }
        let role: SessionRole
        switch index.role {
        case "reader": role = .reader
        case "mdoc": role = .mdoc
        default:
            throw SessionCaptureError(.badIndex, file: Self.indexFileName, "role \"\(UntrustedText.escaped(index.role))\" is neither reader nor mdoc")
        }
        var mode: MdocBLEMode?
        if let name = index.bleMode {
            guard let known = MdocBLEMode(rawValue: name) else {
                throw SessionCaptureError(.badIndex, file: Self.indexFileName, "BLE mode \"\(UntrustedText.escaped(name))\" is not a mode")
            }
            mode = known
        }

        let keyBytes = try Self.readFile(index.ephemeralKey, in: path, secret: true)
        let key: PrivateKey
        do {
            key = try PrivateKey(pemRepresentation: String(decoding: keyBytes, as: UTF8.self))
        } catch {
            throw SessionCaptureError(.badContent, file: index.ephemeralKey, "not a private key: \(error)")
        }
        var messages: [LinkMessage] = []
        for entry in index.messages {
            guard let direction = LinkMessage.Direction(rawValue: entry.direction) else {
                throw SessionCaptureError(
                    .badIndex, file: Self.indexFileName, "message \(entry.file): direction \"\(UntrustedText.escaped(entry.direction))\"")
            }
            messages.append(LinkMessage(
                direction: direction, bytes: try Self.readFile(entry.file, in: path),
                time: try Self.time(entry.time, member: "time of \(entry.file)")))
        }
        self.init(
            role: role, program: index.program, transport: index.transport, mode: mode, mtu: index.mtu,
            started: try Self.time(index.started, member: "started"), ended: try Self.time(index.ended, member: "ended"),
            deviceEngagement: try Self.readFile(index.engagement, in: path),
            engagementURI: String(String(decoding: try Self.readFile(index.engagementURI, in: path), as: UTF8.self)
                .prefix { $0 != "\n" }),
            sessionTranscriptBytes: try index.sessionTranscript.map { (name) throws(SessionCaptureError) in
                try Self.readFile(name, in: path)
            },
            ephemeralKey: key,
            messages: messages, outcome: index.outcome, exitStatus: index.exitStatus,
            verificationTime: try index.verificationTime.map { (text) throws(SessionCaptureError) in
                try Self.time(text, member: "verificationTime")
            },
            report: nil)

        if let name = index.apduTrace {
            do {
                apduTrace = try APDUTrace(text: String(decoding: try Self.readFile(name, in: path), as: UTF8.self))
            } catch {
                throw SessionCaptureError(.badContent, file: name, "not an APDU trace: \(error)")
            }
        }
        try checkTranscript(files: index)
        for (opened, entry) in zip(openedMessages(), index.messages) {
            let stored = try entry.plaintext.map { (plaintext) throws(SessionCaptureError) in try Self.readFile(plaintext.file, in: path) }
            switch (stored, opened.plaintext) {
            case (nil, nil):
                // Nothing decrypted in the session either: its problem is the session's.
                continue
            case (let stored?, let plaintext?):
                guard stored != plaintext else { continue }
                throw SessionCaptureError(
                    .inconsistent, file: entry.plaintext?.file ?? entry.file, "the stored plaintext is not what \(entry.file) decrypts to")
            case (nil, _?):
                throw SessionCaptureError(.inconsistent, file: Self.indexFileName, "names no plaintext for \(entry.file), which decrypts")
            case (_?, nil):
                // It decrypted in the session and does not now: the message is blamed.
                if let problem = opened.problem {
                    throw SessionCaptureError(.inconsistent, file: entry.file, problem)
                }
                throw SessionCaptureError(
                    .inconsistent, file: Self.indexFileName, "names a plaintext for \(entry.file), which holds no data to decrypt")
            }
        }
    }

    /// Checks that SessionTranscriptBytes hold the engagement and the SessionEstablishment's
    /// EReaderKeyBytes as stored, and that the ephemeral key is this side's key in them. A
    /// capture without them is an mdoc's whose session took no SessionEstablishment: its key is
    /// the engagement's EDeviceKey.
    private func checkTranscript(files index: Index) throws(SessionCaptureError) {
        guard let sessionTranscriptBytes, let transcriptFile = index.sessionTranscript else {
            try checkWithoutTranscript(files: index)
            return
        }
        let transcript: SessionTranscript
        do {
            transcript = try SessionTranscriptBinding(encoded: sessionTranscriptBytes).transcript
        } catch {
            throw SessionCaptureError(.badContent, file: transcriptFile, "not SessionTranscriptBytes: \(error)")
        }
        guard let engagement = transcript.deviceEngagementBytes, Array(engagement.bytes) == deviceEngagement else {
            throw SessionCaptureError(
                .inconsistent, file: transcriptFile, "DeviceEngagementBytes are not the bytes of \(index.engagement)")
        }
        guard let readerKey = transcript.eReaderKeyBytes else {
            throw SessionCaptureError(.inconsistent, file: transcriptFile, "the transcript holds no EReaderKeyBytes")
        }
        if let first = messages.first, fromReader(first) {
            try checkEstablishment(first.bytes, readerKey: readerKey, file: index.messages[0].file, transcriptFile: transcriptFile)
        }
        let ownKey: PublicKey?
        switch role {
        case .reader: ownKey = try? readerKey.value.publicKey()
        case .mdoc: ownKey = try? engagement.value.security.eDeviceKeyBytes.value.publicKey()
        }
        guard ownKey == ephemeralKey.publicKey else {
            throw SessionCaptureError(
                .inconsistent, file: index.ephemeralKey,
                "not the \(role == .reader ? "EReaderKey" : "EDeviceKey") of \(transcriptFile)")
        }
    }

    /// Checks that `bytes`, the first message of the capture, sent by the reader, carries the
    /// transcript's EReaderKeyBytes (`readerKey`). In a reader's capture it may be a map that is
    /// no SessionEstablishment, lacking an entry or with an entry under the wrong tag (a
    /// conformance runner sends such a one on purpose, 9.1.1.4): it is kept as sent, for the
    /// inspector to name what is wrong, but an `eReaderKey` it does carry must still be the
    /// transcript's, with or without its tag 24. An mdoc takes a transcript only from a
    /// SessionEstablishment it decoded, so its capture with one allows no other.
    private func checkEstablishment(
        _ bytes: [UInt8], readerKey: EmbeddedCBOR<COSEKey>, file: String, transcriptFile: String
    ) throws(SessionCaptureError) {
        let sentKey: CBOR?
        do {
            sentKey = try SessionEstablishment(encoded: bytes).eReaderKey.cbor
        } catch {
            guard role == .reader, case .map(let map)? = try? CBOR.decode(bytes) else {
                throw SessionCaptureError(.badContent, file: file, "not a SessionEstablishment: \(error)")
            }
            sentKey = map[text: "eReaderKey"]
        }
        guard let sentKey else { return }
        guard sentKey == readerKey.cbor || (role == .reader && .tagged(CBOR.Tag.encodedCBOR, sentKey) == readerKey.cbor) else {
            throw SessionCaptureError(.inconsistent, file: file, "EReaderKeyBytes are not those of \(transcriptFile)")
        }
    }

    /// The checks of a capture that names no SessionTranscriptBytes: only an mdoc's capture of a
    /// session that failed before a SessionEstablishment was taken has none (a reader builds its
    /// transcript before it connects, 9.1.5.1), and its ephemeral key is the engagement's
    /// EDeviceKey.
    private func checkWithoutTranscript(files index: Index) throws(SessionCaptureError) {
        guard role == .mdoc else {
            throw SessionCaptureError(
                .inconsistent, file: Self.indexFileName, "a reader's capture names no sessionTranscript; the reader makes one before it connects")
        }
        if let first = messages.first, fromReader(first), (try? SessionEstablishment(encoded: first.bytes)) != nil {
            throw SessionCaptureError(
                .inconsistent, file: Self.indexFileName,
                "names no sessionTranscript although \(index.messages[0].file) is a SessionEstablishment")
        }
        let ownKey = try? DeviceEngagement(encoded: deviceEngagement).security.eDeviceKeyBytes.value.publicKey()
        guard ownKey == ephemeralKey.publicKey else {
            throw SessionCaptureError(.inconsistent, file: index.ephemeralKey, "not the EDeviceKey of \(index.engagement)")
        }
    }

    /// An RFC 3339 time of the index.
    private static func time(_ text: String, member: String) throws(SessionCaptureError) -> Date {
        do {
            return try TDate(text: text).date
        } catch {
            throw SessionCaptureError(.badIndex, file: indexFileName, "\(member) \"\(UntrustedText.escaped(text))\" is not an RFC 3339 time")
        }
    }

    /// The bytes of the file `name` of the capture in `directory`: a plain name in the directory
    /// (no `/`, not starting with a dot), a regular file of at most ``maximumFileSize`` octets;
    /// with `secret`, one that neither group nor others may access.
    static func readFile(_ name: String, in directory: String, secret: Bool = false) throws(SessionCaptureError) -> [UInt8] {
        guard !name.isEmpty, !name.hasPrefix("."), !name.contains("/"), !name.utf8.contains(0) else {
            throw SessionCaptureError(.badIndex, file: indexFileName, "\"\(UntrustedText.escaped(name))\" is not a file name in the capture directory")
        }
        let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            throw SessionCaptureError(.unreadable, file: name, "cannot open: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw SessionCaptureError(.unreadable, file: name, "not a regular file")
        }
        guard status.st_size <= maximumFileSize else {
            throw SessionCaptureError(.tooLarge, file: name, "\(status.st_size) bytes; a capture file holds at most \(maximumFileSize)")
        }
        if secret, status.st_mode & 0o077 != 0 {
            throw SessionCaptureError(
                .insecurePermissions, file: name,
                "holds a private key but its mode \(String(status.st_mode & 0o777, radix: 8)) lets others access it; run: chmod 600 \(path)")
        }
        switch SystemCall.readToEnd(fd, limit: maximumFileSize) {
        case .success(let bytes):
            return bytes
        case .failure(.tooLarge):
            throw SessionCaptureError(.tooLarge, file: name, "more than \(maximumFileSize) bytes; a capture file holds at most that")
        case .failure(.errno(let code)):
            throw SessionCaptureError(.unreadable, file: name, "cannot read: \(String(cString: strerror(code)))")
        }
    }
}
