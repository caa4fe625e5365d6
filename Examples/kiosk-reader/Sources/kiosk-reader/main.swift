// A kiosk reader: asks the mdoc whose engagement it is given whether its holder is over 18, and
// shows the verified answer. The first argument stands in for the camera: the mdoc: URI of the
// holder's QR code (ISO/IEC 18013-5 8.2.2.3). The second, optional, is the radio (sim, bluez,
// hci:...; the system's default otherwise). It trusts the IACA roots of MDOC_TRUST, else of
// ~/.config/swift-mdoc/trust/iaca, as mdoc-reader does.
//     swift run kiosk-reader 'mdoc:owBjMS4w...' [sim]
import SwiftMdoc

let reader = MdocReader(configuration: .init(
    request: [RequestPreset.ageOver18.docRequestSpec()], trustAnchors: try DefaultTrust.issuerAnchors()))
let uri = try MdocURI(CommandLine.arguments[1])
let radio = try CommandLine.arguments.dropFirst(2).first.map { try TransportSpec(parsing: $0) }

switch try await withRadio(radio, { radio in try await reader.read(uri, over: radio) }) {
case .verified(let documents, _):
    let over18 = documents.first?.ageOver(18)
    print("verified: over 18: \(over18.map { $0 ? "yes" : "no" } ?? "not released")")
case .rejected(let report, _):
    print("NOT VERIFIED: \(UntrustedText.escaped(report.failureSummary.first ?? "verification failed"))")
case .refused(let refusal, _):
    print("refused: \(refusal)")
case .failed(let error, _):
    print("failed: \(error)")
case .linkFailed(let error, _):
    print("no answer: \(error)")
}
