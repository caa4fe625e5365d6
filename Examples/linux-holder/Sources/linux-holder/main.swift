// A holder on Linux: presents the credential file it is given (as `mdoc-issuer issue` writes
// them, such as Certs/demo/mdl.mdoc) to the next reader, with the engagement drawn as a QR code
// in the terminal (ISO/IEC 18013-5 8.2.2.3), and says what it released. The second argument,
// optional, is the radio (sim, bluez, hci:...; the system's default otherwise). Readers are
// recognised by the reader roots of MDOC_TRUST_READERS, else of ~/.config/swift-mdoc/trust/readers.
//     swift run linux-holder ../../Certs/demo/mdl.mdoc [sim]
import SwiftMdoc

let credential = try CredentialFiles.load(CommandLine.arguments[1]).credential
let radio = try CommandLine.arguments.dropFirst(2).first.map { try TransportSpec(parsing: $0) }
let holder = MdocHolder(configuration: .init(
    credentials: [credential], readerTrust: ReaderRootTrust(trustAnchors: try DefaultTrust.readerAnchors()),
    consent: HolderConsent { request in
        // A wallet shows `request` to its user here (who asks, for which elements, whether they
        // will be kept) and releases what the user agrees to. This one agrees to what it holds.
        request.allAvailable
    }, endsAfterResponse: true))

let result = try await withRadio(radio) { radio in
    try await holder.present(over: radio) { uri in
        print((try? QRCode(text: uri.description).terminalText()) ?? "(the QR code does not fit)")
        print(uri)
    }
}
for disclosure in result.disclosures {
    print("released: \(disclosure.released)")
}
print("session: \(result.end)")
