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
    /// Writes the report, as text or as JSON, to standard output.
    static func show(_ report: VerificationReport, json: Bool, trustEntries: [Certificate: TrustEntry]) {
        if json {
            ProgramOutput.standardOutput.writeLine(TerminalText(lines: ReportRenderer.json(report, trustEntries: trustEntries).serialized(pretty: true)))
        } else {
            ProgramOutput.standardOutput.write(ReportRenderer.text(
                report, palette: .for(.standardOutput, environment: ProcessInfo.processInfo.environment), trustEntries: trustEntries))
        }
    }

    /// Returns when everything verified; otherwise throws the failure for the report's outcome.
    static func check(_ report: VerificationReport) throws(ProgramFailure) {
        if let failure = failure(for: report) { throw failure }
    }

    /// The failure for the report's outcome; `nil` when everything verified.
    static func failure(for report: VerificationReport) -> ProgramFailure? {
        switch report.outcome {
        case .verified:
            return nil
        case .issuerAuthenticationFailed:
            return ProgramFailure(.issuerAuthenticationFailed, "\(report.failureSummary.first ?? "issuer data authentication failed")")
        case .deviceAuthenticationFailed:
            return ProgramFailure(.deviceAuthenticationFailed, "\(report.failureSummary.first ?? "device authentication failed")")
        case .deviceAuthenticationNotChecked:
            return ProgramFailure(
                .deviceAuthenticationNotChecked,
                "issuer data verified, but device authentication was not checked (give --transcript, and --reader-key for DeviceMac)")
        case .noDocuments:
            return ProgramFailure(.noDocuments, "the response holds no document (status \(DeviceResponse.Status(rawValue: report.status)))")
        }
    }
}
