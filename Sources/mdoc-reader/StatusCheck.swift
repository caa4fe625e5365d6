import ArgumentParser
import MdocCBOR
import MdocCrypto
import MdocFiles
import MdocHTTP
import MdocModel
import MdocSession
import MdocStatusList
import MdocStores
import MdocTerminal
import MdocText

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `--status`: whether `request` and `verify` read each document's status from the Status List
/// Token its MSO names (ISO/IEC 18013-5 second edition `status`; draft-ietf-oauth-status-list).
enum StatusChecking: String, ExpressibleByArgument, CaseIterable {
    /// No status is read.
    case off
    /// A status that cannot be read (offline, unreachable, a list refused) is reported as not
    /// checked, with why, and the document still verifies; a revoked or suspended one fails.
    case check
    /// As `check`, but a status that cannot be read fails the document too.
    case require
}

/// The options of the status check.
struct StatusOptions: ParsableArguments {
    @Option(name: .customLong("status"),
            help: "Read each document's status from the status list its MSO names: off, check (a list that cannot be had leaves the status unknown, said in the report) or require (then the document fails).")
    var mode: StatusChecking = .check

    @Flag(help: "Fetch no status list: use only those kept from earlier fetches (~/.cache/swift-mdoc/status).")
    var offline = false

    @Flag(name: .customLong("status-http"), help: "Fetch status lists over plain http too (test servers); https only otherwise.")
    var plainHTTP = false

    @Option(name: .customLong("status-ca"), help: "CA certificates (PEM) for status list servers, in place of the system's.",
            completion: .file(extensions: ["pem", "crt"]))
    var certificateAuthorities: String?
}

/// The status pass of `request` and `verify`: after the verification, the status lists the
/// verified documents name are had (StatusListResolver: cache, then network), and the response
/// is verified again with a RevocationPolicy over them (TokenStatusListChecker). A response
/// whose documents name no status list is left as it was verified.
enum StatusCheck {
    /// `report` with every document's status checked under `options`, by `verifier` with its
    /// policy extended; `report` itself when nothing is to be checked.
    static func check(
        _ response: DeviceResponse, report: VerificationReport, verifier: DeviceResponseVerifier, options: StatusOptions
    ) async -> VerificationReport {
        guard options.mode != .off else { return report }
        let lists = references(response, report: report)
        guard !lists.isEmpty else { return report }
        var limits = HTTPFetchLimits()
        limits.allowsPlainHTTP = options.plainHTTP
        limits.caFile = options.certificateAuthorities
        let resolver = StatusListResolver(
            cacheFolder: UserDirectories(environment: ProcessInfo.processInfo.environment).statusListCache, limits: limits,
            offline: options.offline)
        let resolutions = await resolver.resolve(lists, at: Date())
        for list in lists {
            guard let resolution = resolutions[list.uri] else { continue }
            let named = (list.kind == .statusList ? "the status list " : "the identifier list ") + list.uri
            switch resolution.source {
            case .network: ProgramOutput.standardError.writeProgressLine("mdoc-reader: fetched \(named)")
            case .cache: ProgramOutput.standardError.writeProgressLine("mdoc-reader: \(named) as fetched before (still fresh)")
            case .staleCache, .none: break
            }
            if let note = resolution.note {
                ProgramOutput.standardError.writeLine("mdoc-reader: note: \(named): \(note)")
            }
        }
        let checker = TokenStatusListChecker(fetched: resolutions.mapValues(\.fetched))
        var checking = verifier
        checking.policy = Appended(first: verifier.policy, then: RevocationPolicy(checker, unknownStatus: options.mode == .require ? .fail : .accept))
        return checking.verify(response, at: report.time)
    }

    /// The lists the MSOs of `response` name (a `status_list` rather than an `identifier_list`
    /// when one names both, as TokenStatusListChecker reads them), of the documents whose
    /// document signer chain validated in `report`, each once, in document order: a document
    /// whose issuer is not trusted makes the reader fetch nothing.
    static func references(_ response: DeviceResponse, report: VerificationReport) -> [StatusListResolver.List] {
        var lists: [StatusListResolver.List] = []
        for (index, document) in (response.documents ?? []).enumerated() {
            guard index < report.documents.count, report.documents[index].chainValidation?.isValid == true,
                  let mso = try? document.issuerSigned.mobileSecurityObjectBytes().value
            else { continue }
            let query = RevocationQuery(docType: document.docType, certificatePath: [], status: mso.additionalEntries[text: "status"], time: report.time)
            let list = query.statusListReference.map { StatusListResolver.List(.statusList, uri: $0.uri) }
                ?? query.identifierListReference.map { StatusListResolver.List(.identifierList, uri: $0.uri) }
            if let list, !lists.contains(where: { $0.uri == list.uri }) { lists.append(list) }
        }
        return lists
    }

    /// Two policies, one after the other.
    private struct Appended: DocumentVerifierPolicy {
        let first: any DocumentVerifierPolicy
        let then: any DocumentVerifierPolicy

        func evaluate(_ verification: inout DocumentVerification) {
            first.evaluate(&verification)
            then.evaluate(&verification)
        }
    }
}
