// A holder and a reader talking ISO/IEC 18013-5 over the `sim` BLE transport (the GATT server and
// client over Linux abstract sockets), with swift-mdoc's public API alone:
//     swift run present-over-sim [DEMO_DIR]    (default: ../../Certs/demo)
import Foundation
import MdocCBOR
import MdocCrypto
import MdocModel
import MdocPresentation
import MdocSession
import MdocSim

let directory = CommandLine.arguments.dropFirst().first ?? "../../Certs/demo"
let mDL = try Credential(encoded: [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(directory)/mdl.mdoc"))))
let iaca = try Certificate(pemEncoded: try String(contentsOfFile: "\(directory)/iaca.pem", encoding: .utf8))

// The holder offers both BLE modes, takes every request as anonymous and releases what is asked
// and held: its user agreed beforehand.
let holder = try HolderDriver(
    credentials: [mDL], bleOptions: .offering(peripheralServerMode: true, centralClientMode: true),
    trust: ReaderRootTrust(trustAnchors: []), consent: HolderConsent.approvingAllAvailable)

// The reader scans the holder's QR code (here it is handed the mdoc: URI) and asks whether the
// holder is over 18, trusting the demo IACA.
let reader = try ReaderDriver(
    uri: try MdocURI(holder.mdocURI.description), request: [RequestPreset.ageOver18.docRequestSpec()],
    trustAnchors: [iaca])

async let presented = holder.run(over: SimAdapter())
let read = await reader.run(over: SimAdapter())
let held = await presented

let safe = { (text: String) in UntrustedText.escaped(text) }
print("holder: \(held.end) in \(held.mode?.rawValue ?? "no") mode")
print("reader: \(read.end), \(read.report?.outcome.rawValue ?? "no response")")
for document in read.report?.documents ?? [] {
    for element in document.elements where element.verified {
        print("  \(safe(document.docType)) \(safe(element.identifier)) = \(element.value.diagnosticNotation())")
    }
}
read.report?.failureSummary.forEach { print("FAILED: \(safe($0))") }
exit(read.report?.outcome == .verified && held.end.isNormalEnd ? 0 : 1)
