import ArgumentParser
import MdocCBOR
import MdocFiles
import MdocInspection
import MdocTerminal
import MdocText

#if canImport(Glibc)
import Glibc
#endif

/// `mdoc encode`: the CBOR that lossless JSON or diagnostic notation describes, the way back from
/// `mdoc inspect --json` and `mdoc inspect --diagnostic` (docs/crafted-sessions.md).
struct Encode: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Encode CBOR written as diagnostic notation or as the JSON of `mdoc inspect --json`.",
        discussion: """
            FILE ('-' or nothing: standard input) holds one data item, written as the lossless \
            JSON of `mdoc inspect --json` (docs/inspect-json.md) or as CBOR diagnostic notation \
            (RFC 8949 section 8) as `mdoc inspect --diagnostic` prints it, with the extensions \
            of RFC 8610 appendix G: h'..', b64'..', '..' byte strings, <<...>> embedded CBOR, \
            comments / ... / and # to the end of a line. Edit what `mdoc inspect` printed, and \
            encode the result to send it (`mdoc-reader request --request FILE`).

            Without an encoding indicator every head takes its shortest form and a float the \
            shortest width that holds it exactly (preferred serialization), so an unedited \
            message sent that way comes back byte for byte, and the bytes of a tag 24 are kept \
            as written. In diagnostic notation, _ after [ or { and (_ ...) write indefinite \
            lengths, and _0 to _3 after a number, string, tag number, [ or { an argument of 1, \
            2, 4 or 8 bytes (on a float: half, single or double precision). Duplicate map keys \
            and items no 18013-5 structure allows are written as given.

            --from picks the notation; auto (the default) takes text of hex digits as the \
            bytes it spells, JSON when the text is JSON, and diagnostic notation otherwise. A \
            file of binary CBOR, hex or base64url is passed through.

            The bytes go to --out (mode 0644; --force replaces a file), or to standard output \
            when it is a file or pipe; on a terminal give --hex to print them as hex.

            Examples:
              mdoc inspect --json request.cbor > request.json
              mdoc encode request.json --out request.cbor
              mdoc encode request.diag --hex
              mdoc encode --from diag crafted.diag | mdoc inspect -

            Exit codes: 0 encoded; 2 the input cannot be read or is not in the notation (the \
            message names the line and column); 7 --out cannot be written; 64 usage error \
            (binary output to a terminal without --out or --hex).
            """
    )

    /// The notation `--from` names.
    enum Notation: String, ExpressibleByArgument, CaseIterable {
        case json, diag, auto

        /// The form to read the input as; `nil` lets the input decide.
        var form: CraftedCBOR.Form? {
            switch self {
            case .json: return .json
            case .diag: return .diagnostic
            case .auto: return nil
            }
        }
    }

    @Argument(help: "A file of JSON or diagnostic notation, or '-' for standard input (the default).", completion: .file())
    var input: String = "-"

    @Option(help: "The notation of the input: json, diag or auto (the default: the input decides).")
    var from: Notation = .auto

    @Option(help: "Write the CBOR to this file instead of standard output.", completion: .file())
    var out: String?

    @Flag(help: "Replace the --out file if it exists.")
    var force = false

    @Flag(help: "Print the CBOR as hex text instead of binary.")
    var hex = false

    func validate() throws {
        if hex && out != nil {
            throw ValidationError("--hex prints the bytes and --out writes them; give one of them")
        }
        if force && out == nil {
            throw ValidationError("--force replaces the --out file: give --out")
        }
    }

    func run() throws {
        ProgramFailure.reporting(program: "mdoc") { () throws(ProgramFailure) in
            try encode()
        }
    }

    private func encode() throws(ProgramFailure) {
        let output = ProgramOutput.standardOutput
        if out == nil, !hex, output.isTerminal {
            throw ProgramFailure(.usage, "the CBOR is binary and standard output is a terminal", hint: "give --out FILE, or --hex")
        }
        let item: CraftedCBOR
        do {
            let name = input == "-" ? "standard input" : input
            let raw = try input == "-" ? InputSource.readAll(fd: STDIN_FILENO, name: name) : InputSource.readFile(input)
            item = try CraftedCBOR(raw, name: name, form: from.form)
        } catch {
            throw ProgramFailure(.malformedInput, "\(error)")
        }
        if let out {
            try OutputFile.create(item.bytes, at: out, mode: OutputFile.publicMode, replacing: force)
        } else if hex {
            output.writeLine(TerminalText(lines: Hex.encode(item.bytes)))
        } else {
            output.writeBinary(item.bytes)
        }
    }
}
