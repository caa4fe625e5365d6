import MdocModel
import MdocSession
import MdocTerminal

/// The exit status a verification report ends `verify` and `request` with (README, exit codes).
enum VerificationExit {
    /// Returns when everything verified; otherwise throws the failure for the report's outcome.
    static func check(_ report: VerificationReport) throws(ProgramFailure) {
        switch report.outcome {
        case .verified:
            return
        case .issuerAuthenticationFailed:
            throw ProgramFailure(.issuerAuthenticationFailed, report.failureSummary.first ?? "issuer data authentication failed")
        case .deviceAuthenticationFailed:
            throw ProgramFailure(.deviceAuthenticationFailed, report.failureSummary.first ?? "device authentication failed")
        case .deviceAuthenticationNotChecked:
            throw ProgramFailure(
                .deviceAuthenticationNotChecked,
                "issuer data verified, but device authentication was not checked (give --transcript, and --reader-key for DeviceMac)")
        case .noDocuments:
            throw ProgramFailure(.noDocuments, "the response holds no document (status \(DeviceResponse.Status(rawValue: report.status)))")
        }
    }
}
