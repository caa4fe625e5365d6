import MdocCBOR

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The documents of a DeviceResponse that verified as a whole (ISO/IEC 18013-5 9.3.1): every
/// returned document passed issuer data authentication and mdoc authentication, and only their
/// verified elements are here. A collection of ``VerifiedDocument``, in the order received.
///
/// Made only by ``DeviceResponseVerifier`` (as swift-certificates' `ValidatedCertificateChain`
/// is made only by its verifier), through ``VerificationReport/verifiedDocuments``: a report
/// made any other way, or one with a document that did not verify, gives none. So code that
/// shows or exports data from a value of this type cannot show unverified data by mistake.
public struct VerifiedDocuments: Sendable, RandomAccessCollection {
    /// The documents.
    public let documents: [VerifiedDocument]
    /// The time every validity check used.
    public let time: Date

    init(_ report: VerificationReport) {
        documents = report.documents.map(VerifiedDocument.init)
        time = report.time
    }

    /// The first document of `docType`, if one was returned.
    public func first(ofType docType: String) -> VerifiedDocument? {
        documents.first { $0.docType.value == docType }
    }

    /// The position of the first document.
    public var startIndex: Int { documents.startIndex }
    /// The position after the last document.
    public var endIndex: Int { documents.endIndex }
    /// The document at `position`.
    public subscript(position: Int) -> VerifiedDocument { documents[position] }
}
