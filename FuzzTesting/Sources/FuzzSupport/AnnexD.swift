import Foundation
import MdocCBOR
import MdocCrypto
import MdocSession

/// The ISO/IEC 18013-5 Annex D material the targets use as fixed context (keys, certificates,
/// transcript, time), read once from the repository's Vectors/ and Certs/. A fuzz target must not
/// depend on anything but its input, so every value is loaded at first use and never changes.
public enum AnnexD {
    /// The repository root, from this file's place in FuzzTesting/Sources/FuzzSupport.
    public static let repositoryRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// 2021-01-01T00:00:00Z: inside the validity of every Annex D certificate and MSO.
    public static let time = Date(timeIntervalSince1970: 1_609_459_200)

    /// The bytes of `Vectors/iso18013-5-annex-d/NAME.hex`; the process stops when missing, as
    /// a target without its context would fuzz nothing.
    public static func bytes(_ name: String) -> [UInt8] {
        let path = repositoryRoot + "/Vectors/iso18013-5-annex-d/\(name).hex"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8), let bytes = Hex.decode(text) else {
            fatalError("fuzz context missing: \(path)")
        }
        return bytes
    }

    public static let iaca: Certificate = load { try Certificate(derEncoded: bytes("iaca_cert")) }
    public static let readerRoot: Certificate = load { try Certificate(derEncoded: bytes("reader_root_cert")) }
    public static let transcript: SessionTranscriptBinding = load { try SessionTranscriptBinding(encoded: bytes("session_transcript_bytes")) }
    public static let eDeviceKey: PrivateKey = load { try PrivateKey(rawRepresentation: bytes("eDeviceKey_private"), curve: .p256) }
    public static let eReaderKey: PrivateKey = load { try PrivateKey(rawRepresentation: bytes("eReaderKey_private"), curve: .p256) }

    /// The session keys of Annex D D.5.1, derived from the reader's side.
    public static let sessionKeys: SessionKeys = load {
        guard let engagement = transcript.transcript.deviceEngagementBytes?.value else { throw AnnexDError() }
        return try SessionKeys(privateKey: eReaderKey, peerPublicKey: engagement.security.eDeviceKeyBytes.value.publicKey(),
                               sessionTranscriptBytes: transcript.taggedBytes)
    }

    private struct AnnexDError: Error {}

    private static func load<Value>(_ make: () throws -> Value) -> Value {
        do {
            return try make()
        } catch {
            fatalError("fuzz context cannot be loaded: \(error)")
        }
    }
}
