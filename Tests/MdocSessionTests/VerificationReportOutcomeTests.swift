import MdocSession
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

@Suite("A response's outcome: the worst of its documents' (ISO/IEC 18013-5 9.3.1)")
struct VerificationReportOutcomeTests {
    /// The document outcomes, best first.
    static let outcomes: [DocumentReport.Outcome] = [
        .verified, .deviceAuthenticationNotChecked, .deviceAuthenticationFailed, .issuerAuthenticationFailed,
    ]

    /// A document report whose checks give `outcome`.
    static func document(_ outcome: DocumentReport.Outcome, index: Int) -> DocumentReport {
        var document = DocumentReport(index: index, docType: "org.iso.18013.5.1.mDL")
        let issuer: VerificationCheck.Outcome = outcome == .issuerAuthenticationFailed ? .failed(.invalidSignature, "altered") : .passed
        let device: VerificationCheck.Outcome
        switch outcome {
        case .deviceAuthenticationFailed: device = .failed(.invalidMAC, "another session")
        case .deviceAuthenticationNotChecked: device = .skipped("no session transcript was given")
        default: device = .passed
        }
        document.checks = [
            VerificationCheck(.issuerCertificate, subject: .named("CN=ds"), outcome: .passed),
            VerificationCheck(.issuerSignature, subject: .issuerAuth, outcome: issuer),
            VerificationCheck(.deviceAuthentication, subject: .deviceAuth, outcome: device),
        ]
        return document
    }

    static func report(_ outcomes: [DocumentReport.Outcome]) -> VerificationReport {
        VerificationReport(
            version: "1.0", status: 0, time: Date(timeIntervalSince1970: 0),
            documents: outcomes.enumerated().map { document($1, index: $0) }, documentErrors: [])
    }

    static func expected(_ outcome: DocumentReport.Outcome) -> VerificationReport.Outcome {
        switch outcome {
        case .verified: return .verified
        case .deviceAuthenticationNotChecked: return .deviceAuthenticationNotChecked
        case .deviceAuthenticationFailed: return .deviceAuthenticationFailed
        case .issuerAuthenticationFailed: return .issuerAuthenticationFailed
        }
    }

    @Test("one document: its outcome", arguments: outcomes)
    func oneDocument(_ outcome: DocumentReport.Outcome) {
        #expect(Self.document(outcome, index: 0).outcome == outcome)
        #expect(Self.report([outcome]).outcome == Self.expected(outcome))
    }

    @Test("documents in any order: the worst outcome among them", arguments: outcomes, outcomes)
    func worstOfAny(_ first: DocumentReport.Outcome, _ second: DocumentReport.Outcome) {
        let worst = Self.outcomes[max(Self.outcomes.firstIndex(of: first) ?? 0, Self.outcomes.firstIndex(of: second) ?? 0)]
        #expect(Self.report([first, second]).outcome == Self.expected(worst))
        #expect(Self.report([first, .verified, second]).outcome == Self.expected(worst))
    }

    @Test("no documents")
    func noDocuments() {
        #expect(Self.report([]).outcome == .noDocuments)
    }
}
