#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

import MdocModel

/// The reader authentication of a whole DeviceRequest (ISO/IEC 18013-5 9.1.4): for each
/// DocRequest, what was requested and every check of its readerAuth.
public struct RequestVerificationReport: Sendable {
    /// How reader authentication ended for the request as a whole: the weakest DocRequest's.
    public enum Outcome: String, Sendable, Hashable {
        /// Every DocRequest carries readerAuth whose chain and signature hold.
        case authenticated
        /// A DocRequest carries readerAuth that does not hold: an unreadable or untrusted
        /// certificate chain, a certificate outside the profile, or a signature that does not
        /// verify over this transcript.
        case failed
        /// A DocRequest carries no readerAuth (and none failed).
        case anonymous
    }

    /// One DocRequest: the ItemsRequest the readerAuth covers and the checks made.
    public struct DocRequestReport: Sendable {
        /// The DocRequest's position in the request.
        public var index: Int
        /// What the reader asks for: doc type, elements and intent to retain.
        public var itemsRequest: ItemsRequest
        /// The reader authentication checks, certificate chain and identity.
        public var readerAuthentication: ReaderAuthenticationVerifier.Report

        /// A report of one DocRequest.
        public init(index: Int, itemsRequest: ItemsRequest, readerAuthentication: ReaderAuthenticationVerifier.Report) {
            self.index = index
            self.itemsRequest = itemsRequest
            self.readerAuthentication = readerAuthentication
        }

        /// This DocRequest's outcome.
        public var outcome: Outcome {
            if readerAuthentication.isAnonymous { return .anonymous }
            return readerAuthentication.isAuthenticated ? .authenticated : .failed
        }
    }

    /// The DeviceRequest version.
    public var version: String
    /// The time every validity check used.
    public var time: Date
    /// One report per DocRequest, in order.
    public var docRequests: [DocRequestReport]

    /// A report of a whole request.
    public init(version: String, time: Date, docRequests: [DocRequestReport]) {
        self.version = version
        self.time = time
        self.docRequests = docRequests
    }

    /// ``Outcome/failed`` when a DocRequest failed, else ``Outcome/anonymous`` when one is
    /// anonymous, else ``Outcome/authenticated``.
    public var outcome: Outcome {
        let outcomes = docRequests.map(\.outcome)
        if outcomes.contains(.failed) { return .failed }
        if outcomes.contains(.anonymous) || outcomes.isEmpty { return .anonymous }
        return .authenticated
    }

    /// Every failed check, prefixed with its DocRequest: `docRequests[0] (org.iso.18013.5.1.mDL): ...`.
    public var failureSummary: [String] {
        docRequests.flatMap { report in
            report.readerAuthentication.checks.compactMap(\.failureReason).map {
                "docRequests[\(report.index)] (\(report.itemsRequest.docType)): \($0)"
            }
        }
    }
}
