import ArgumentParser
import MdocCBOR
import MdocCapture
import MdocCrypto
import MdocFiles
import MdocModel
import MdocSession
import MdocTerminal
import MdocText

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `mdoc-reader verify-request`: verify a stored DeviceRequest's reader authentication offline,
/// as a holder decides on it.
struct VerifyRequest: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify-request",
        abstract: "Verify a stored DeviceRequest's reader authentication, as a holder would, and print a report.",
        discussion: """
            For each DocRequest: the readerAuth certificate chain (COSE x5chain) to the \
            --trust-readers roots under the ISO/IEC 18013-5 Annex B reader authentication \
            profile (extendedKeyUsage 1.0.18013.5.1.6), every certificate check, the signature \
            over ReaderAuthenticationBytes built from --transcript and the ItemsRequestBytes as \
            received (9.1.4), and the elements requested with intent to retain: what \
            `mdoc-holder present` shows before asking for consent. For testing a reader: give \
            the request it sent and the session's transcript.

            --trust-readers takes reader root certificates, or directories of them (the PKI \
            folder of `mdoc-issuer pki`: reader-root.pem is taken, the rest skipped with a note). \
            Without it the reader roots a holder trusts are taken: the paths of \
            MDOC_TRUST_READERS (separated by ':'), else the folder \
            ~/.config/swift-mdoc/trust/readers ($XDG_CONFIG_HOME/swift-mdoc/trust/readers) when \
            it exists.

            Example:
              mdoc-reader verify-request Vectors/iso18013-5-annex-d/device_request.hex \\
                --transcript Vectors/iso18013-5-annex-d/session_transcript_bytes.hex \\
                --trust-readers Vectors/iso18013-5-annex-d/reader_root_cert.hex \\
                --at 2021-01-01T00:00:00Z

            Exit codes: 0 every DocRequest's reader authentication verified; 2 malformed input \
            (not a DeviceRequest, or a capture directory that cannot be read or holds no \
            request); 7 unusable --trust-readers or --transcript file; 9 reader \
            authentication failed (untrusted or non-conformant certificate chain, a signature \
            that does not verify over this transcript) or absent (an anonymous DocRequest); 64 \
            usage error (no reader roots named anywhere included).
            """
    )

    @Argument(help: "The DeviceRequest: a file (binary CBOR or hex) or '-' for standard input (omit with --session).", completion: .file())
    var request: String?

    @Option(help: "The SessionTranscript or SessionTranscriptBytes of the session (binary or hex).", completion: .file())
    var transcript: String?

    @Option(help: "A session captured with `mdoc-reader request --save-session`: verify the request it sent.",
            completion: .directory)
    var session: String?

    @Option(name: .customLong("trust-readers"), parsing: .upToNextOption,
            help: "Reader root certificates (PEM, DER or hex DER files, or directories of them; default: MDOC_TRUST_READERS, else ~/.config/swift-mdoc/trust/readers).",
            completion: .file())
    var trustReaders: [String] = []

    @Option(help: "The verification time, RFC 3339 (default: now).")
    var at: String?

    @Flag(help: "Print the report as JSON.")
    var json = false

    func validate() throws {
        if session == nil {
            guard request != nil, transcript != nil else {
                throw ValidationError("give the DeviceRequest and --transcript, or --session DIR")
            }
        } else if request != nil || transcript != nil {
            throw ValidationError("--session brings the request and its transcript; leave out the DeviceRequest and --transcript")
        }
        if let at, (try? TDate(text: at)) == nil {
            throw ValidationError("--at \(at): not an RFC 3339 date-time (for example 2021-01-01T00:00:00Z)")
        }
    }

    func run() throws {
        ProgramFailure.reporting(program: "mdoc-reader") { () throws(ProgramFailure) in
            try verify()
        }
    }

    private func verify() throws(ProgramFailure) {
        let givenTime = (at.flatMap { try? TDate(text: $0) })?.date
        let anchors = try ReaderTrust.readerRoots(trustReaders, command: "verify-request")
        let requestBytes: [UInt8]
        let transcriptBytes: [UInt8]
        let time: Date
        let name: String
        if let session {
            let capture: SessionCapture
            do {
                capture = try SessionCapture(directory: session)
            } catch {
                throw ProgramFailure(.malformedInput, "--session \(session): \(error)")
            }
            // A message decrypts only with the keys of a transcript: a request implies one.
            guard let sent = capture.openedMessages().first(where: { $0.fromReader }), let plaintext = sent.plaintext,
                  let captured = capture.sessionTranscriptBytes else {
                throw ProgramFailure(.malformedInput, "--session \(session): the capture holds no DeviceRequest: \(capture.outcome)")
            }
            (requestBytes, transcriptBytes, time, name) = (plaintext, captured, givenTime ?? capture.started, session)
        } else {
            guard let request, let transcript else { return }
            do {
                transcriptBytes = try InputSource.load(transcript).bytes
            } catch {
                throw ProgramFailure(.badTrustInput, "--transcript \(transcript): not a SessionTranscript: \(error)")
            }
            do {
                requestBytes = try InputSource.load(request).bytes
            } catch {
                throw ProgramFailure(.malformedInput, "\(error)")
            }
            (time, name) = (givenTime ?? Date(), request)
        }
        let binding: SessionTranscriptBinding
        do {
            binding = try SessionTranscriptBinding(encoded: transcriptBytes)
        } catch {
            throw ProgramFailure(.badTrustInput, "--transcript \(transcript ?? name): not a SessionTranscript: \(error)")
        }
        let report: RequestVerificationReport
        do {
            report = try DeviceRequestVerifier(trustAnchors: anchors).verify(requestBytes, sessionTranscript: binding, at: time)
        } catch {
            throw ProgramFailure(.malformedInput, "\(name): not a DeviceRequest: \(error)")
        }
        if json {
            ProgramOutput.standardOutput.writeLine(TerminalText(lines: RequestReportRenderer.json(report).serialized(pretty: true)))
        } else {
            ProgramOutput.standardOutput.write(RequestReportRenderer.text(
                report, palette: .for(.standardOutput, environment: ProcessInfo.processInfo.environment)))
        }
        switch report.outcome {
        case .authenticated:
            return
        case .failed:
            throw ProgramFailure(.readerAuthenticationFailed, "\(report.failureSummary.first ?? "reader authentication failed")")
        case .anonymous:
            throw ProgramFailure(.readerAuthenticationFailed, "a DocRequest carries no readerAuth: the reader is anonymous")
        }
    }
}
