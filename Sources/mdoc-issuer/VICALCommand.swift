import ArgumentParser
import MdocCBOR
import MdocCrypto
import MdocFiles
import MdocIssuance
import MdocModel
import MdocSession
import MdocStores
import MdocTerminal
import MdocText

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `mdoc-issuer vical`: a signed VICAL (ISO/IEC 18013-5 Annex C.1.7) of test IACAs, or, with
/// `--break`, one a reader must reject.
struct VICALCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vical",
        abstract: "Sign a VICAL (ISO/IEC 18013-5 Annex C.1.7) listing IACA certificates, with the VICAL signer of a PKI.",
        discussion: """
            Writes to --out (mode 0644) a VICAL, the trust list of ISO/IEC 18013-5 Annex C.1.7: \
            a COSE_Sign1 whose payload lists one entry per --entry, each an IACA certificate \
            (PEM, DER or hex DER) with the doc types it may anchor after "=" (separated by \
            commas; short names mdl, pid and av accepted; default org.iso.18013.5.1.mDL). Each \
            entry restates its certificate's serial number, subject key identifier, issuer and \
            subject Names, validity and country, with --issuing-authority when given. It is \
            signed with the VICAL signer of --pki (vical-signer.pem, vical-signer-key.pem; \
            checked against vical-root.pem first), made by `mdoc-issuer pki DIR --vical`, and \
            its x5chain holds the VICAL signer certificate only, as published VICALs do. A \
            reader trusting vical-root.pem verifies it. --date defaults to now and \
            --next-update to --date plus 30 days.

            Negative test material: each --break (repeatable) makes one fault that a reader's \
            VICAL verification rejects: signature (a flipped bit), serial, ski, issuer, subject \
            and not-after (the first entry's field disagrees with its certificate), version \
            (2.0), future-date (the date a day after now), no-x5chain, and detached (the \
            payload is null: the file cannot be read as a VICAL at all). A VICAL that would \
            fail verification, by --break or by an --entry that is not a valid IACA now, is \
            written as test material: its extensions hold "testMaterial", a note per reason, \
            and the output lists them under TEST MATERIAL.

            Examples:
              mdoc-issuer pki my-pki --vical
              mdoc-issuer vical --pki my-pki --provider "Test VICAL Provider" \\
                --entry my-pki/iaca.pem=mdl,pid --out test.vical
              mdoc-issuer vical --pki my-pki --provider "Test VICAL Provider" \\
                --entry my-pki/iaca.pem --break ski --out wrong-ski.vical

            Exit codes: 0 written; 7 unusable --pki or --entry files (an --entry that is not \
            one certificate, or has no subject key identifier, included), or --out exists \
            (without --force) or cannot be written; 64 usage error (a bad date, an --entry \
            naming no doc type, a --break of an entry without --entry).
            """
    )

    /// The doc type of an `--entry` that names none.
    static let defaultDocType = DocType.mDL
    /// How long after `--date` the default `--next-update` is: 30 days.
    static let defaultUpdateInterval: TimeInterval = 30 * 86_400
    /// How far `future-date` puts the date after now: a day, well past the reader's skew.
    static let futureDateOffset: TimeInterval = 86_400
    /// The key under `extensions` holding the test-material notes.
    static let testMaterialKey = "testMaterial"

    @Option(help: "The PKI directory made by `mdoc-issuer pki --vical`.", completion: .directory)
    var pki: String

    @Option(help: "The vicalProvider: who issues the list.")
    var provider: String

    @Option(name: .customLong("issue-id"), help: "The vicalIssueID: the list's number, increasing with each of the provider's lists.")
    var issueID: UInt64?

    @Option(help: "The date the list is issued, RFC 3339 (default: now).")
    var date: String?

    @Option(name: .customLong("next-update"),
            help: "When the next list is due, RFC 3339 (default: --date plus 30 days); one in the past makes a stale list.")
    var nextUpdate: String?

    @Option(name: .customLong("entry"), parsing: .singleValue,
            help: ArgumentHelp(
                "An IACA certificate to list, with the doc types it may anchor (default org.iso.18013.5.1.mDL); repeat for several.",
                valueName: "file[=doctype,...]"),
            completion: .file())
    var entries: [String] = []

    @Option(name: .customLong("issuing-authority"), help: "The issuingAuthority of every entry.")
    var issuingAuthority: String?

    @Option(name: .customLong("break"), parsing: .singleValue,
            help: "Make the VICAL fail verification this way (test material); repeat for several.")
    var breakages: [VICALBreakage] = []

    @Option(help: "The VICAL file to write.", completion: .file())
    var out: String

    @Flag(help: "Replace an existing --out file.")
    var force = false

    @Flag(help: "Print what was written as JSON (docs/json-report.md).")
    var json = false

    func validate() throws {
        for (name, value) in [("--date", date), ("--next-update", nextUpdate)] {
            if let value, (try? TDate(text: value)) == nil {
                throw ValidationError("\(name) \(value): not an RFC 3339 date-time (for example 2021-01-01T00:00:00Z)")
            }
        }
        if date != nil, breakages.contains(.futureDate) {
            throw ValidationError("give --date or --break future-date, not both")
        }
        if entries.isEmpty, let entryBreakage = breakages.first(where: \.breaksEntry) {
            throw ValidationError("--break \(entryBreakage.rawValue) breaks the first entry; give an --entry")
        }
        for entry in entries {
            _ = try Self.parse(entry)
        }
    }

    /// The file and doc types of an `--entry`: `file` alone lists ``defaultDocType``, and
    /// `file=a,b` lists `a` and `b` (short names resolved).
    static func parse(_ entry: String) throws(ValidationError) -> (file: String, docTypes: [String]) {
        guard let equals = entry.firstIndex(of: "=") else { return (entry, [defaultDocType]) }
        let file = String(entry[..<equals])
        let names = entry[entry.index(after: equals)...].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard !file.isEmpty else { throw ValidationError("--entry \(entry): names no certificate file before \"=\"") }
        guard names != [""] else { throw ValidationError("--entry \(entry): names no doc type after \"=\"") }
        var docTypes: [String] = []
        for name in names {
            let docType = DocTypeNames.docType(for: name)
            guard DocTypeNames.isQualified(docType) else {
                throw ValidationError(
                    "--entry \(entry): \"\(name)\" is neither a short name nor a docType (a reverse domain name such as org.iso.18013.5.1.mDL); the short names are \(DocTypeNames.listText)")
            }
            docTypes.append(docType)
        }
        return (file, docTypes)
    }

    func run() throws {
        let listed = try entries.map { (entry) throws(ValidationError) in try Self.parse(entry) }
        ProgramFailure.reporting(program: "mdoc-issuer") { () throws(ProgramFailure) in
            try makeVICAL(listing: listed)
        }
    }

    /// One entry as it is written: its file, its certificate, and the entry listing it.
    private typealias Listed = (file: String, certificate: Certificate, info: VICAL.CertificateInfo)

    private func makeVICAL(listing listed: [(file: String, docTypes: [String])]) throws(ProgramFailure) {
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let signer = try loadSigner(at: now)
        var infos: [Listed] = []
        for (file, docTypes) in listed {
            infos.append(try entry(file: file, docTypes: docTypes))
        }
        let signerName = signer.signerChain[0].subjectNameDER
        for breakage in breakages where breakage.breaksEntry {
            breakage.apply(to: &infos[0].info, otherName: signerName)
        }
        let issued = breakages.contains(.futureDate)
            ? now.addingTimeInterval(Self.futureDateOffset) : date.flatMap { try? TDate(text: $0) }?.date ?? now
        var notes = breakages.filter { !$0.breaksEntry }.map(\.explanation)
        if !breakages.contains(.futureDate), issued > now.addingTimeInterval(VICALVerifier.allowedClockSkew) {
            notes.append("the date \(TDate(issued).text) is after the time of signing \(TDate(now).text)")
        }
        notes += infos.enumerated().flatMap { index, entry in
            VICALVerifier.entry(entry.info, at: index, time: now).problems.map { "entry \(index) (\(entry.file)): \($0)" }
        }
        var extensions: CBORMap?
        if !notes.isEmpty {
            var marked = CBORMap()
            marked.append(.textString(Self.testMaterialKey), .array(notes.map { .textString($0) }))
            extensions = marked
        }
        let due = TDate(nextUpdate.flatMap { try? TDate(text: $0) }?.date ?? issued.addingTimeInterval(Self.defaultUpdateInterval))
        var vical = VICAL(
            vicalProvider: provider, date: TDate(issued), vicalIssueID: issueID, nextUpdate: due, certificateInfos: infos.map(\.info),
            extensions: extensions)
        for breakage in breakages { breakage.apply(to: &vical) }
        let encoded: [UInt8]
        do {
            var message = try signer.sign(vical).message
            for breakage in breakages { message = try breakage.apply(to: message) }
            encoded = message.encoded()
        } catch {
            throw ProgramFailure(.badTrustInput, "cannot sign the VICAL: \(error)")
        }
        try OutputFile.create(encoded, at: out, mode: OutputFile.publicMode, replacing: force)
        report(vical, nextUpdate: due, infos: infos, signer: signer.signerChain[0], notes: notes)
    }

    /// Prints what was written.
    private func report(_ vical: VICAL, nextUpdate: TDate, infos: [Listed], signer: Certificate, notes: [String]) {
        if json {
            let written = JSONReport.object(.vical, [
                ("out", .string(out)),
                ("vicalProvider", .string(vical.vicalProvider)),
                ("vicalIssueID", vical.vicalIssueID.map { .bigInteger(String($0)) } ?? .null),
                ("date", .string(vical.date.text)),
                ("nextUpdate", .string(nextUpdate.text)),
                ("signer", .string("\(signer.subject)")),
                ("certificates", .array(infos.map { entry in
                    .object([
                        ("file", .string(entry.file)),
                        ("subject", .string("\(entry.certificate.subject)")),
                        ("serialNumber", .string(Hex.encode(entry.info.serialNumber))),
                        ("docTypes", .array(entry.info.docType.map(JSONValue.string))),
                    ])
                })),
                ("testMaterial", .array(notes.map(JSONValue.string))),
            ])
            ProgramOutput.standardOutput.writeLine(TerminalText(lines: written.serialized(pretty: true)))
            return
        }
        ProgramOutput.standardOutput.writeLine(
            "Wrote a VICAL of \(vical.vicalProvider) listing \(TerminalText(count: infos.count, "certificate")), dated \(vical.date.text), "
                + "next update \(nextUpdate.text), signed by \(signer.subject), to \(out)")
        for entry in infos {
            ProgramOutput.standardOutput.writeLine("  \(entry.file)  \(entry.certificate.subject)  \(entry.info.docType.joined(separator: ", "))")
        }
        if !notes.isEmpty {
            ProgramOutput.standardOutput.writeLine("TEST MATERIAL, made to fail verification (the VICAL's extensions say so too):")
            for note in notes {
                ProgramOutput.standardOutput.writeLine("  - \(note)")
            }
        }
    }

    /// The VICAL signer of `--pki`, checked against its VICAL root at `time` under the VICAL
    /// signer profile.
    private func loadSigner(at time: Date) throws(ProgramFailure) -> VICALSigner {
        let signer: Certificate
        let root: Certificate
        let key: PrivateKey
        do {
            signer = try single(try CertificateFiles.loadFile(pki + "/vical-signer.pem"), pki + "/vical-signer.pem")
            root = try single(try CertificateFiles.loadFile(pki + "/vical-root.pem"), pki + "/vical-root.pem")
            key = try KeyFiles.loadPrivateKey(pki + "/vical-signer-key.pem")
        } catch {
            throw ProgramFailure(.badTrustInput, "--pki \(error) (`mdoc-issuer pki DIR --vical` makes a VICAL provider's files)")
        }
        guard key.publicKey == signer.publicKey else {
            throw ProgramFailure(.badTrustInput, "--pki \(pki): vical-signer-key.pem is not the key of vical-signer.pem")
        }
        let result = CertificateChainValidator(trustAnchors: [root]).validate(chain: [signer], profile: .vicalSigner, at: time)
        guard result.isValid else {
            let reason = result.failures.first.map { "\($0)" } ?? "no path"
            throw ProgramFailure(.badTrustInput, "--pki \(pki): vical-signer.pem does not chain to vical-root.pem now: \(reason)")
        }
        do {
            return try VICALSigner(signerKey: key, signerChain: [signer])
        } catch {
            throw ProgramFailure(.badTrustInput, "--pki \(pki): vical-signer.pem cannot sign: \(error.reason)")
        }
    }

    /// The certificate in `file` and the entry listing it for `docTypes`.
    private func entry(file: String, docTypes: [String]) throws(ProgramFailure) -> Listed {
        let certificate: Certificate
        do {
            certificate = try single(try CertificateFiles.loadFile(file), file)
        } catch {
            throw ProgramFailure(.badTrustInput, "--entry \(error)")
        }
        do {
            return (file, certificate, try VICALSigner.certificateInfo(for: certificate, docTypes: docTypes, issuingAuthority: issuingAuthority))
        } catch {
            throw ProgramFailure(.badTrustInput, "--entry \(file): cannot be listed: \(error.reason)")
        }
    }

    private func single(_ certificates: [Certificate], _ path: String) throws(InputError) -> Certificate {
        guard certificates.count == 1, let certificate = certificates.first else {
            throw InputError(.unsupportedContent, source: path, "holds \(certificates.count) certificates, expected one")
        }
        return certificate
    }
}
