#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The verification of a whole DeviceResponse (18013-5 9.3.1): one ``DocumentReport`` per
/// returned document plus what the response said about documents it did not return.
public struct VerificationReport: Sendable {
    /// How verification ended for the response as a whole: the most serious document outcome.
    public enum Outcome: String, Sendable, Hashable {
        /// Every document verified fully.
        case verified
        /// A document failed issuer data authentication.
        case issuerAuthenticationFailed
        /// A document failed device authentication or key authorisation.
        case deviceAuthenticationFailed
        /// Issuer data verified; device authentication was not checked.
        case deviceAuthenticationNotChecked
        /// The response returned no document.
        case noDocuments
    }

    /// A document the mdoc reported instead of returning it (DocumentError, 8.3.2.1.2.2).
    public struct DocumentErrorEntry: Sendable, Hashable {
        /// The docType not returned.
        public var docType: String
        /// The error code (0: data not returned).
        public var code: Int64

        /// An entry of DocumentError.
        public init(docType: String, code: Int64) {
            self.docType = docType
            self.code = code
        }
    }

    /// The DeviceResponse version.
    public var version: String
    /// The DeviceResponse status (0 OK, 10 general error, 11 CBOR decoding error, 12 CBOR
    /// validation error).
    public var status: UInt64
    /// The time every validity check used.
    public var time: Date
    /// One report per returned document, in order. Changing them makes the report one the
    /// verifier did not make: ``verifiedDocuments`` is then `nil`.
    public var documents: [DocumentReport] {
        didSet { madeByVerifier = false }
    }
    /// The documents the mdoc reported as not returned.
    public var documentErrors: [DocumentErrorEntry]
    /// Whether ``DeviceResponseVerifier`` made this report and its documents are as it left them.
    var madeByVerifier = false

    /// A report of a whole response.
    public init(version: String, status: UInt64, time: Date, documents: [DocumentReport], documentErrors: [DocumentErrorEntry]) {
        self.version = version
        self.status = status
        self.time = time
        self.documents = documents
        self.documentErrors = documentErrors
    }

    /// The most serious document outcome, or ``Outcome/noDocuments``.
    public var outcome: Outcome {
        if documents.isEmpty { return .noDocuments }
        // One pass, the worst outcome of any document winning, each document's outcome read once.
        var outcome = Outcome.verified
        for document in documents {
            switch document.outcome {
            case .issuerAuthenticationFailed:
                return .issuerAuthenticationFailed
            case .deviceAuthenticationFailed:
                outcome = .deviceAuthenticationFailed
            case .deviceAuthenticationNotChecked where outcome == .verified:
                outcome = .deviceAuthenticationNotChecked
            case .deviceAuthenticationNotChecked, .verified:
                break
            }
        }
        return outcome
    }

    /// The verified documents, when ``DeviceResponseVerifier`` made this report, every returned
    /// document passed issuer data authentication and mdoc authentication, and ``documents``
    /// was not changed since; otherwise `nil`. Only a verified element is in it.
    public var verifiedDocuments: VerifiedDocuments? {
        guard madeByVerifier, outcome == .verified else { return nil }
        return VerifiedDocuments(self)
    }

    /// Every failed check, prefixed with its document: `documents[0] (org.iso.18013.5.1.mDL): ...`.
    public var failureSummary: [String] {
        documents.flatMap { document in
            document.failures.map { "documents[\(document.index)] (\(document.docType)): \($0)" }
        }
    }
}
