// Verifies the ISO/IEC 18013-5 Annex D DeviceResponse with swift-mdoc's public API:
//     swift run verify-response [VECTORS_DIR]    (default: ../../Vectors/iso18013-5-annex-d)
import Foundation
import MdocCBOR
import MdocCrypto
import MdocSession

let directory = CommandLine.arguments.dropFirst().first ?? "../../Vectors/iso18013-5-annex-d"
struct NotHex: Error { let path: String }
func vector(_ name: String) throws -> [UInt8] {
    let path = "\(directory)/\(name).hex"
    guard let bytes = Hex.decode(try String(contentsOfFile: path, encoding: .utf8)) else { throw NotHex(path: path) }
    return bytes
}

let verifier = DeviceResponseVerifier(
    trustAnchors: [try Certificate(derEncoded: vector("iaca_cert"))],
    sessionTranscript: try SessionTranscriptBinding(encoded: vector("session_transcript_bytes")),
    readerKey: try PrivateKey(rawRepresentation: vector("eReaderKey_private"), curve: .p256))
let annexDTime = Date(timeIntervalSince1970: 1_609_459_200)  // 2021-01-01T00:00:00Z, inside every validity
let report = try verifier.verify(vector("device_response"), at: annexDTime)

// Every text below came from the mdoc: UntrustedText shows it without letting it act on the
// terminal (diagnostic notation escapes its strings itself).
let safe = { (text: String) in UntrustedText.escaped(text) }
for document in report.documents {
    print("\(safe(document.docType)): \(document.outcome.rawValue), signed by \(safe(document.documentSigner ?? "?"))")
    for element in document.elements where element.verified {
        print("  \(safe(element.nameSpace))/\(safe(element.identifier)) = \(element.value.diagnosticNotation(byteStringPrefixLength: 8))")
    }
}
report.failureSummary.forEach { print("FAILED: \(safe($0))") }
exit(report.outcome == .verified ? 0 : 1)
