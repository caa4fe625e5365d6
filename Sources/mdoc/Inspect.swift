import ArgumentParser
import MdocCBOR
import MdocTerminal

/// `mdoc inspect`: decode any 18013-5 message or CBOR item into annotated diagnostic notation.
struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Decode an 18013-5 message or any CBOR into diagnostic notation or JSON.",
        discussion: """
            ARG is a file path, '-' for standard input, or an mdoc: URI itself. The input may be \
            binary CBOR, hex or base64url text, or an mdoc: URI; the encoding is detected. \
            Embedded CBOR (tag 24) is decoded and shown inside <<...>>.

            Examples:
              mdoc inspect Vectors/iso18013-5-annex-d/device_response.hex
              mdoc inspect 'mdoc:owBjMS4wAYIB2BhYS6QBAiABIVgg...'
              mdoc inspect response.cbor --json

            Exit codes: 0 decoded; 2 the input is not readable or not well-formed CBOR.
            """
    )

    @Argument(help: "A file path, '-' for standard input, or an mdoc: URI.", completion: .file())
    var input: String

    @Flag(help: "Print JSON instead of diagnostic notation.")
    var json = false

    func run() throws {
        ProgramFailure.reporting(program: "mdoc") { () throws(ProgramFailure) in
            try inspect()
        }
    }

    private func inspect() throws(ProgramFailure) {
        do {
            let source = try InputSource.load(input, allowURI: true)
            let item = try CBOR.decode(source.bytes)
            if json {
                ProgramOutput.standardOutput.writeLine(TerminalText(lines: item.jsonValue(expandEmbedded: true).serialized(pretty: true)))
            } else {
                let kind = MessageKind(of: item).map { $0.rawValue } ?? "CBOR data item"
                ProgramOutput.standardOutput.writeLine("/ \(kind), \(source.bytes.count) bytes, from \(source.encoding.rawValue) input /")
                ProgramOutput.standardOutput.writeLine(TerminalText(lines: item.diagnosticNotation(expandEmbedded: true, indent: true)))
            }
        } catch let error as InputError {
            throw ProgramFailure(.malformedInput, "\(error)")
        } catch let error as CBORError {
            throw ProgramFailure(.malformedInput, "\(input): not well-formed CBOR: \(error)")
        } catch {
            throw ProgramFailure(.malformedInput, "\(input): \(error)")
        }
    }
}
