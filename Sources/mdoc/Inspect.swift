import ArgumentParser
import MdocCBOR
import MdocCapture
import MdocFiles
import MdocInspection
import MdocTerminal
import MdocText

/// `mdoc inspect`: explain any 18013-5 message, certificate or CBOR item, or show it in
/// diagnostic notation or JSON.
struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Explain an 18013-5 message, certificate or any CBOR, or show it as diagnostic notation or JSON.",
        discussion: """
            ARG is a file path, '-' for standard input, an mdoc: URI itself, or a session \
            capture directory (`mdoc-reader request --save-session DIR`), whose engagement, \
            transcript and messages are shown in the order they went over the link, each with \
            what it decrypts to (docs/session-capture.md). The input may be \
            binary, hex or base64url text, or an mdoc: URI; the encoding is detected. Besides \
            CBOR (every ISO/IEC 18013-5 message and mdoc-issuer's credential files), it may be an \
            X.509 certificate (DER, hex DER or PEM), an NDEF message (NFC handover) or a JWS \
            (server retrieval).

            Output (one of):
              --explain     what each field means, as `openssl x509 -text` does: engagement \
            keys and BLE modes, requested elements with intent to retain, the MSO, every \
            certificate with its extensions and the ISO/IEC 18013-5 Annex B profile it fits. \
            The default, in a pipe as on a terminal.
              --diagnostic  CBOR diagnostic notation (RFC 8949 section 8) with embedded CBOR \
            (tag 24) shown inside <<...>>, which `mdoc encode` reads back.
              --json        lossless JSON of the CBOR (docs/inspect-json.md): byte strings as \
            {"$bytes": base64url}, tags as {"$tag": n, "$value": ...}, integer map keys as \
            decimal strings.

            A private key is not shown in any of them: the private part of a credential's \
            device key, and of any COSE_Key (d, -4; a symmetric key's k, -1), is replaced by \
            the text "private key, not shown". --show-private-key shows it.

            Nothing is verified: use `mdoc-reader verify` for a DeviceResponse and `mdoc-reader \
            verify-request` for a DeviceRequest.

            Examples:
              mdoc inspect Vectors/iso18013-5-annex-d/device_response.hex --explain
              mdoc inspect 'mdoc:owBjMS4wAYIB2BhYS6QBAiABIVgg...'
              mdoc inspect Certs/demo/ds.pem
              mdoc inspect response.cbor --json
              mdoc inspect capture/ --explain

            Exit codes: 0 decoded; 2 the input is not readable, or none of the kinds above \
            (--json: not CBOR), or a capture directory that cannot be read.
            """
    )

    /// How `inspect` writes what it decoded.
    enum Format: String, EnumerableFlag {
        case explain, diagnostic, json

        static func help(for value: Format) -> ArgumentHelp? {
            switch value {
            case .explain: return "Explain every field (the default)."
            case .diagnostic: return "Print CBOR diagnostic notation, which `mdoc encode` reads back."
            case .json: return "Print lossless JSON (docs/inspect-json.md)."
            }
        }
    }

    @Argument(help: "A file path, '-' for standard input, an mdoc: URI, or a session capture directory.", completion: .file())
    var input: String

    @Flag var format: Format?

    @Flag(name: .customLong("show-private-key"),
          help: "Show private keys (a credential's device key, any COSE_Key's d), which are otherwise replaced by \"private key, not shown\".")
    var showPrivateKey = false

    func run() throws {
        ProgramFailure.reporting(program: "mdoc") { () throws(ProgramFailure) in
            try inspect()
        }
    }

    private func inspect() throws(ProgramFailure) {
        if OutputFile.isDirectory(input) {
            try inspectCapture()
            return
        }
        let source: InputSource
        let content: InspectedContent
        do {
            source = try InputSource.load(input, allowURI: true)
            content = try InspectedContent(source, showingPrivateKeys: showPrivateKey)
        } catch {
            throw ProgramFailure(.malformedInput, "\(error)")
        }
        let output = ProgramOutput.standardOutput
        switch (format ?? .explain, content) {
        case (.json, .cbor(let item)):
            output.writeLine(TerminalText(lines: item.losslessJSON.serialized(pretty: true)))
        case (.json, _):
            throw ProgramFailure(
                .malformedInput, "\(input): --json writes CBOR (docs/inspect-json.md), and this input is not CBOR; use --explain")
        case (.diagnostic, .cbor(let item)):
            let kind = MessageKind(of: item).map { $0.rawValue } ?? "CBOR data item"
            output.writeLine("/ \(kind), \(source.bytes.count) bytes, from \(source.encoding.rawValue) input /")
            output.writeLine(TerminalText(lines: item.diagnosticNotation(expandEmbedded: true, indent: true)))
        case (.explain, _), (.diagnostic, _):
            var explanation = content.explanation
            let size: TerminalText = "\(source.bytes.count) bytes, from \(Self.form(of: source, content)) input"
            explanation.value = explanation.value.map { $0 + ", " + size } ?? size
            output.write(explanation.rendered())
        }
    }

    /// How the input was written, for the line that heads the output: the encoding
    /// ``InputSource`` decoded, or, for bytes read as they are, what they are: PEM or DER for a
    /// certificate, text for a JWS, binary for CBOR, an NDEF message or an image.
    private static func form(of source: InputSource, _ content: InspectedContent) -> String {
        guard source.encoding == .binary else { return source.encoding.rawValue }
        switch content {
        case .certificates: return InputKind(of: source) == .pemCertificate ? "PEM" : "DER"
        case .jws: return "text"
        case .cbor, .ndef, .image: return InputSource.Encoding.binary.rawValue
        }
    }

    /// Walks the session captured in the directory `input`.
    private func inspectCapture() throws(ProgramFailure) {
        let capture: SessionCapture
        do {
            capture = try SessionCapture(directory: input)
        } catch {
            throw ProgramFailure(.malformedInput, "\(input): \(error)")
        }
        let output = ProgramOutput.standardOutput
        switch format ?? .explain {
        case .json:
            throw ProgramFailure(
                .malformedInput, "\(input): a session capture is described by its \(SessionCapture.indexFileName); give --json one of its files")
        case .explain:
            output.write(capture.explanation(diagnostic: false).rendered())
        case .diagnostic:
            output.write(capture.explanation(diagnostic: true).rendered())
        }
    }
}
