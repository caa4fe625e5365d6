import MdocCBOR
import MdocCrypto
import MdocSession

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The swift-mdoc checkout this program was built from, where its default inputs are: the
/// Annex D vectors (`Vectors/`), the demo credential and IACA (`Certs/demo`) and the Bumble script
/// `link` runs. `MDOC_VECTORS_DIR` names another `Vectors/` folder; the folder holding it is then
/// taken as the checkout.
enum Checkout {
    /// The `Vectors/` folder.
    static let vectors: String = ProcessInfo.processInfo.environment["MDOC_VECTORS_DIR"] ?? {
        // .../Sources/mdoc-benchmark/Checkout.swift -> .../Vectors
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        return sources.deletingLastPathComponent().appendingPathComponent("Vectors").path
    }()

    /// The checkout's top folder.
    static var root: String {
        URL(fileURLWithPath: vectors).deletingLastPathComponent().path
    }

    /// The demo credential (Certs/demo/mdl.mdoc) and its IACA (Certs/demo/iaca.pem); ends the
    /// program when either cannot be read.
    static func demoMaterial() -> (credential: Credential, iaca: Certificate) {
        let credential = prepare("the demo mDL (Certs/demo/mdl.mdoc)") {
            try Credential(encoded: [UInt8](try Data(contentsOf: URL(fileURLWithPath: root + "/Certs/demo/mdl.mdoc"))))
        }
        let iaca = prepare("the demo IACA (Certs/demo/iaca.pem)") {
            try Certificate(pemEncoded: try String(contentsOfFile: root + "/Certs/demo/iaca.pem", encoding: .utf8))
        }
        return (credential, iaca)
    }
}
