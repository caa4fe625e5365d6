import MdocCBOR
import MdocModel
import MdocPresentation
import MdocSession
import Testing
import MdocTestSupport

/// One named hostile or broken input and the specific rejection it must meet.
///
/// Each case builds its input from material the project makes (``TestPKI``, ``TestMdoc``,
/// ``DocumentIssuer`` credentials, live ``SessionPair``s) or from the Annex D vectors, runs the
/// real component on it and says what that component reported, as codes: never only "it
/// failed".
struct NegativeCase: Sendable, CustomTestStringConvertible {
    /// What is wrong, in words.
    let name: String
    /// The rejection the component must report.
    let expected: Rejection
    /// Builds the input, runs the component, and returns what it reported.
    let produce: @Sendable () throws -> Rejection

    init(_ name: String, _ expected: Rejection, _ produce: @escaping @Sendable () throws -> Rejection) {
        self.name = name
        self.expected = expected
        self.produce = produce
    }

    var testDescription: String { name }
}

/// A failed ``VerificationCheck`` reduced to what a program compares: its kind and code.
struct FailedCheck: Hashable, Sendable, CustomStringConvertible {
    let kind: VerificationCheck.Kind
    let code: VerificationFailure.Code?

    init(_ kind: VerificationCheck.Kind, _ code: VerificationFailure.Code) {
        self.kind = kind
        self.code = code
    }

    init(_ check: VerificationCheck) {
        kind = check.kind
        code = check.failureCode
    }

    var description: String { "\(kind)/\(code.map { "\($0)" } ?? "nil")" }
}

/// What a component reported for a negative case, in codes.
enum Rejection: Hashable, Sendable, CustomStringConvertible {
    /// A verification (DeviceResponseVerifier or ReaderAuthenticationVerifier) whose failed
    /// checks are exactly these, in report order.
    case checks([FailedCheck])
    /// A session that failed with this SessionError code, having sent this SessionData status
    /// to the peer (`nil`: nothing sent, as for a status received or a session never started).
    case session(SessionError.Code, sent: SessionData.Status?)
    /// A DeviceResponse with this status, whose `documentErrors` (`docType`) and Document
    /// `errors` (`docType/nameSpace/identifier`) carry these ErrorCodes.
    case response(DeviceResponse.Status, notReturned: [String: Int64])
    /// A session that ended normally this way (the status 20 boundary of the error statuses).
    case ended(SessionOutcome)
    /// The component went on as if nothing were wrong (what it did, for the failure message).
    case notRejected(String)

    /// One failed check.
    static func check(_ kind: VerificationCheck.Kind, _ code: VerificationFailure.Code) -> Rejection {
        .checks([FailedCheck(kind, code)])
    }

    /// The failed checks of every document of `report`.
    init(_ report: VerificationReport) {
        self = .checks(report.documents.flatMap(\.failures).map(FailedCheck.init))
    }

    /// The failed checks of a reader authentication report.
    init(_ report: ReaderAuthenticationVerifier.Report) {
        self = .checks(report.checks.filter(\.failed).map(FailedCheck.init))
    }

    /// What a session action reports: the failure and the status sent with it, or a normal end.
    init(_ outcome: SessionOutcome, sent message: [UInt8]?) {
        if case .failed(let error) = outcome {
            self = .session(error.code, sent: message.flatMap(sessionStatus))
        } else {
            self = .ended(outcome)
        }
    }

    /// The status and the not-returned documents and elements of a response as the reader's
    /// report shows them.
    static func response(_ report: VerificationReport) -> Rejection {
        var notReturned: [String: Int64] = [:]
        for entry in report.documentErrors {
            notReturned[entry.docType] = entry.code
        }
        for document in report.documents {
            for error in document.elementErrors {
                notReturned["\(document.docType)/\(error.nameSpace)/\(error.identifier)"] = error.code
            }
        }
        return .response(DeviceResponse.Status(rawValue: report.status), notReturned: notReturned)
    }

    var description: String {
        switch self {
        case .checks(let checks): return "checks \(checks)"
        case .session(let code, let sent): return "session \(code), sent status \(sent.map { "\($0)" } ?? "none")"
        case .response(let status, let notReturned): return "response status \(status), not returned \(notReturned)"
        case .ended(let outcome): return "ended: \(outcome)"
        case .notRejected(let what): return "not rejected: \(what)"
        }
    }
}

/// Every negative case, named.
enum NegativeCorpus {
    static var all: [NegativeCase] {
        issuerData + certificateProfiles + deviceAuthentication + readerAuthentication + sessionEstablishment
            + sessionEncryption + statusCodes + requestsAndResponses
    }
}

@Suite("Negative corpus: each hostile or broken input meets its specific error (ISO/IEC 18013-5 9.1, 9.3, Annex B)")
struct NegativeCorpusTests {
    @Test(arguments: NegativeCorpus.all)
    func rejected(_ negative: NegativeCase) throws {
        let reported = try negative.produce()
        #expect(reported == negative.expected, "\(negative.name)")
    }

    @Test("the corpus holds at least 50 cases, each named once")
    func corpusIsComplete() {
        let names = NegativeCorpus.all.map(\.name)
        #expect(names.count >= 50, "\(names.count) cases")
        #expect(Set(names).count == names.count, "duplicate names")
    }
}
