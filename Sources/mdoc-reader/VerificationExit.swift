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

/// How `verify` and `request` end with a verification report: the report on standard output,
/// then the exit status for its outcome (README, exit codes).
enum VerificationExit {
    /// Writes the report, as text or as JSON, to standard output; with `online`, what bound an
    /// online response to its request goes first (text) or into the report's `online` member
    /// (JSON).
    static func show(_ report: VerificationReport, json: Bool, trustEntries: [Certificate: TrustEntry], online: OnlineBinding? = nil) {
        if json {
            var object = ReportRenderer.json(report, trustEntries: trustEntries)
            if let online, case .object(let members) = object {
                object = .object(members + [("online", online.json)])
            }
            ProgramOutput.standardOutput.writeLine(TerminalText(lines: object.serialized(pretty: true)))
        } else {
            if let online {
                ProgramOutput.standardOutput.write(online.text)
            }
            ProgramOutput.standardOutput.write(ReportRenderer.text(
                report, palette: .for(.standardOutput, environment: ProcessInfo.processInfo.environment), trustEntries: trustEntries))
        }
    }

    /// Returns when everything verified; otherwise throws the failure for the report's outcome.
    /// `capturedBy` is the side whose capture held the response (`verify --session`), `nil`
    /// for a response of a file or a live session.
    static func check(_ report: VerificationReport, capturedBy side: SessionRole? = nil) throws(ProgramFailure) {
        if let failure = failure(for: report, capturedBy: side) { throw failure }
    }

    /// The failure for the report's outcome; `nil` when everything verified.
    static func failure(for report: VerificationReport, capturedBy side: SessionRole? = nil) -> ProgramFailure? {
        switch report.outcome {
        case .verified:
            return nil
        case .issuerAuthenticationFailed:
            return ProgramFailure(.issuerAuthenticationFailed, "\(report.failureSummary.first ?? "issuer data authentication failed")")
        case .deviceAuthenticationFailed:
            return ProgramFailure(.deviceAuthenticationFailed, "\(report.failureSummary.first ?? "device authentication failed")")
        case .deviceAuthenticationNotChecked:
            // What could check it: a DeviceMac needs EReaderKey (9.1.3.5), which only the
            // reader's side of a session holds.
            let remedy = switch side {
            case nil: " (give --transcript, and --reader-key for DeviceMac)"
            case .mdoc: ": the mdoc's capture holds no EReaderKey, and only the reader's capture of this session can check a DeviceMac"
            case .reader: ""
            }
            return ProgramFailure(
                .deviceAuthenticationNotChecked, "issuer data verified, but device authentication was not checked\(remedy)")
        case .noDocuments:
            return ProgramFailure(.noDocuments, "the response holds no document (status \(DeviceResponse.Status(rawValue: report.status)))")
        }
    }
}
