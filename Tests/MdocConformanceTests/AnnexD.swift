import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel
import MdocSession
import MdocTestSupport

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The ISO/IEC 18013-5 Annex D worked example, as the conformance suites use it (facts in
/// Vectors/iso18013-5-annex-d/README.md).
enum AnnexD {
    /// 2021-01-01T00:00:00Z: every Annex D certificate and the MSO are valid.
    static let validTime = Date(timeIntervalSince1970: 1_609_459_200)
    /// 2026-11-21T00:00:00Z: the DS certificate (to 2021-10-01) and the reader certificate (to
    /// 2023-12-31) have expired; the IACA and reader root have not.
    static let laterTime = Date(timeIntervalSince1970: 1_795_219_200)
    /// The docType of the example mDL.
    static let docType = "org.iso.18013.5.1.mDL"
    /// The name space of every disclosed element.
    static let nameSpace = "org.iso.18013.5.1"
    /// SHA-256(SessionTranscriptBytes), the HKDF salt of the session keys and EMacKey (9.1.1.5).
    static let salt = "f823ac566e22b2106c9b7c02fadc7482e559a1de8a809b56c828779e6d67570e"

    /// The bytes of a vector, by file name without `.hex`.
    static func bytes(_ name: String) -> [UInt8] {
        Vectors.annexD(name)
    }

    /// A published P-256 private key (`eDeviceKey_private`, `eReaderKey_private`, `sDeviceKey_private`).
    static func privateKey(_ name: String) throws -> PrivateKey {
        try PrivateKey(rawRepresentation: bytes("\(name)_private"), curve: .p256)
    }

    /// A published P-256 public key from its `_public_x` and `_public_y` files.
    static func publicKey(_ name: String) throws -> PublicKey {
        try PublicKey(x: bytes("\(name)_public_x"), y: bytes("\(name)_public_y"), curve: .p256)
    }

    /// A DER certificate vector.
    static func certificate(_ name: String) throws -> Certificate {
        try Certificate(derEncoded: bytes(name))
    }

    /// The session's transcript, from SessionTranscriptBytes as received.
    static func transcript() throws -> SessionTranscriptBinding {
        try SessionTranscriptBinding(encoded: bytes("session_transcript_bytes"))
    }

    /// The single DocRequest of the DeviceRequest.
    static func docRequest() throws -> DocRequest {
        let request = try DeviceRequest(encoded: bytes("device_request"))
        guard request.docRequests.count == 1, let docRequest = request.docRequests.first else {
            throw CBORError(.invalidValue, "the Annex D DeviceRequest must hold one DocRequest")
        }
        return docRequest
    }
}

extension VerificationReport {
    /// The checks of every document of a given kind.
    func checks(_ kind: VerificationCheck.Kind) -> [VerificationCheck] {
        documents.flatMap(\.checks).filter { $0.kind == kind }
    }
}
