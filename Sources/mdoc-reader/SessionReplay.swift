import MdocCBOR
import MdocBLE
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

/// `mdoc-reader verify --session`: the response of a captured session verified again offline,
/// from the bytes that went over the link (docs/session-capture.md).
struct SessionReplay {
    /// The capture, its files checked against each other.
    let capture: SessionCapture
    /// The directory it was read from.
    let directory: String

    /// Reads the capture in `directory`; a capture that cannot be read is malformed input.
    init(directory: String) throws(ProgramFailure) {
        do {
            capture = try SessionCapture(directory: directory)
        } catch {
            throw ProgramFailure(.malformedInput, "--session \(directory): \(error)")
        }
        self.directory = directory
    }

    /// Verifies the last DeviceResponse the mdoc sent, as the live session did: decrypted with
    /// the session keys of the capture's ephemeral key (9.1.1.5), bound to the stored
    /// SessionTranscriptBytes, with the reader's EReaderKey for DeviceMac (an mdoc's capture
    /// has no reader key: DeviceMac stays unchecked), at `time`, else at the captured session's
    /// verification time.
    ///
    /// - Throws: ``ProgramFailure`` with exit status 8 when the capture holds no response, as
    ///   the live session ended.
    func verify(
        trustAnchors: [Certificate], documentSignerPolicy: DocumentSignerPolicy, at time: Date?, status: StatusOptions
    ) async throws(ProgramFailure) -> VerificationReport {
        let opened = capture.openedMessages()
        // A message decrypts only with the keys of a transcript: a response implies one.
        guard let response = opened.last(where: { !$0.fromReader && $0.plaintext != nil }), let plaintext = response.plaintext,
              let transcriptBytes = capture.sessionTranscriptBytes else {
            throw ProgramFailure(.sessionFailed, "--session \(directory): the captured session holds no response: \(capture.outcome)")
        }
        let transcript: SessionTranscriptBinding
        do {
            transcript = try SessionTranscriptBinding(encoded: transcriptBytes)
        } catch {
            throw ProgramFailure(.malformedInput, "--session \(directory): \(SessionCapture.sessionTranscriptFileName): \(error)")
        }
        if capture.role == .mdoc {
            ProgramOutput.standardError.writeLine(
                "mdoc-reader: note: the mdoc captured this session: without the reader's EReaderKey a DeviceMac cannot be checked")
        }
        let verifier = DeviceResponseVerifier(
            trustAnchors: trustAnchors, documentSignerPolicy: documentSignerPolicy, sessionTranscript: transcript,
            readerKey: capture.role == .reader ? capture.ephemeralKey : nil)
        ProgramOutput.standardError.writeLine(
            "mdoc-reader: replaying the session of \(TDate(capture.started).text) over \(capture.transport)\(capture.mode.map { " in \($0.rawValue) mode" } ?? ""): \(capture.outcome)")
        do {
            let report = try verifier.verify(plaintext, at: time ?? capture.verificationTime ?? capture.ended)
            guard let response = try? DeviceResponse(encoded: plaintext) else { return report }
            return await StatusCheck.check(response, report: report, verifier: verifier, options: status)
        } catch {
            // The live session could not decode it either and ended without a report.
            throw ProgramFailure(.sessionFailed, "--session \(directory): the response is not a DeviceResponse: \(error)")
        }
    }
}
