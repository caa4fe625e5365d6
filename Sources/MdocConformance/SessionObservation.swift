import MdocCBOR
import MdocModel
import MdocPresentation
import MdocSession

/// What the mdoc did in a session, in words for the reason of a failed case: the DeviceResponse
/// it sent, the status it ended the session with, or how the session ended otherwise. Text the
/// mdoc chose (a docType) is escaped.
struct SessionObservation: CustomStringConvertible {
    /// The status of the last SessionData from the mdoc that carried one.
    let endStatus: SessionData.Status?
    let result: ReaderSessionResult

    init(_ result: ReaderSessionResult) {
        self.result = result
        endStatus = result.messages.filter { $0.direction == .received }
            .compactMap { try? SessionData(encoded: $0.bytes).status }.last
    }

    var description: String {
        var parts: [String] = []
        if let response = result.response {
            let documents = response.documents ?? []
            let types = documents.map { UntrustedString($0.docType).description }.joined(separator: ", ")
            parts.append("the mdoc sent a DeviceResponse with status \(response.status) and \(documents.count) document(s)\(types.isEmpty ? "" : " (\(types))")")
            if let report = result.report, !documents.isEmpty, report.verifiedDocuments == nil {
                parts.append("which did not verify: \(report.failureSummary.joined(separator: "; "))")
            }
        }
        if let endStatus {
            parts.append("the mdoc ended the session with status \(endStatus)")
        } else if result.response == nil {
            parts.append("\(result.end)")
        }
        return parts.joined(separator: ", ")
    }
}
