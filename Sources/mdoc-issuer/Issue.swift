import ArgumentParser
import MdocCBOR
import MdocCrypto
import MdocModel
import MdocSession
import MdocTerminal

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `mdoc-issuer issue`: issue one document as a holder credential file.
struct Issue: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Issue a document signed by a PKI's document signer, as a credential file for mdoc-holder.",
        discussion: """
            Reads the data elements from --data (the JSON format of docs/issuer-data-format.md), \
            makes an IssuerSignedItem with a fresh random salt per element and the MSO (ISO/IEC \
            18013-5 9.1.2.4) holding their digests and the device key, signs it with the \
            document signer of --pki (ds.pem, ds-key.pem; checked against iaca.pem first) and \
            writes the credential (docType, IssuerSigned and the private device key; mode 0600) \
            to --out. The document signer's extendedKeyUsage must be one the doc type's rule \
            accepts (as `mdoc-reader verify` checks it: 1.0.18013.5.1.2 for the mDL; see \
            --accept-ds-eku), so that what is issued verifies. The device key is a new P-256 \
            key unless --device-key gives one. The MSO is valid from now for --valid-days, but \
            not past the document signer certificate (a note says so when that shortens it by \
            a day or more).

            --doctype takes a docType (a reverse domain name such as org.iso.18013.5.1.mDL) or \
            one of the short names mdl (org.iso.18013.5.1.mDL), pid (eu.europa.ec.eudi.pid.1) \
            and av (eu.europa.ec.av.1), as `mdoc-reader request --doctype` does.

            Examples:
              mdoc-issuer issue --pki Certs/demo --doctype mdl --data Samples/mdl.json \\
                --out mdl.mdoc
              mdoc-issuer issue --pki my-pki --doctype pid --data Samples/pid.json \\
                --out pid.mdoc --json

            Exit codes: 0 issued; 2 the data file is not valid issuer data (the message names \
            the JSON path) or cannot make a document; 7 unusable --pki or --device-key, or \
            --out exists (without --force) or cannot be written; 64 usage error (a --doctype \
            that is neither a short name nor a reverse domain name included).
            """
    )

    /// The longest MSO validity accepted, in days (as for `pki`).
    static let maximumValidDays = PKI.maximumValidDays
    /// How much shorter than asked the MSO validity must come out, because the document signer
    /// certificate ends first, for a note to say so: a day. A PKI made moments before with the
    /// same number of days cuts a few seconds, which is no news.
    static let validityNoteThreshold: Double = 86_400

    @Option(help: "The PKI directory made by `mdoc-issuer pki`.", completion: .directory)
    var pki: String

    @Option(help: "The document type: a docType such as org.iso.18013.5.1.mDL, or mdl, pid or av.")
    var doctype: String

    @Option(help: "The data elements: a JSON file (docs/issuer-data-format.md).", completion: .file(extensions: ["json"]))
    var data: String

    @Option(help: "The credential file to write (by convention with the extension .mdoc).", completion: .file())
    var out: String

    @Option(name: .customLong("valid-days"), help: "How many days the MSO is valid from now.")
    var validDays: Int = 365

    @Option(name: .customLong("device-key"), help: "The device private key (PEM or COSE_Key); default a new P-256 key.",
            completion: .file())
    var deviceKey: String?

    @OptionGroup var documentSigner: DocumentSignerOptions

    @Flag(help: "Replace an existing --out file.")
    var force = false

    @Flag(help: "Print what was issued as JSON (docs/json-report.md).")
    var json = false

    func validate() throws {
        guard (1...Self.maximumValidDays).contains(validDays) else {
            throw ValidationError("--valid-days must be 1 to \(Self.maximumValidDays)")
        }
        guard DocTypeNames.isQualified(docType) else {
            throw ValidationError(
                "--doctype \(doctype): neither a short name nor a docType (a reverse domain name such as org.iso.18013.5.1.mDL); the short names are \(DocTypeNames.listText)")
        }
    }

    /// The docType `--doctype` names.
    private var docType: String { DocTypeNames.docType(for: doctype) }

    func run() throws {
        let rule = try documentSigner.policy().rule(for: docType)
        ProgramFailure.reporting(program: "mdoc-issuer") { () throws(ProgramFailure) in
            try issue(rule: rule)
        }
    }

    private func issue(rule: DocumentSignerRule) throws(ProgramFailure) {
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let (issuer, documentSigner) = try loadIssuer(at: now, rule: rule)
        let device = try loadDeviceKey()
        let elements: IssuerData
        do {
            elements = try IssuerData.load(data)
        } catch {
            throw ProgramFailure(.malformedInput, "\(error)")
        }
        var until = now.addingTimeInterval(Double(validDays) * 86_400)
        if until > documentSigner.notValidAfter {
            if until.timeIntervalSince(documentSigner.notValidAfter) >= Self.validityNoteThreshold {
                ProgramOutput.standardError.write(
                    "mdoc-issuer: note: the MSO validity ends with the document signer certificate, \(TDate(documentSigner.notValidAfter).text), not after --valid-days \(validDays)\n")
            }
            until = documentSigner.notValidAfter
        }
        let validity = ValidityInfo(signed: TDate(now), validFrom: TDate(now), validUntil: TDate(until))
        let credential: Credential
        do {
            credential = try issuer.issueCredential(
                docType: docType, nameSpaces: elements.nameSpaces, deviceKey: device, validityInfo: validity)
        } catch {
            throw ProgramFailure(.malformedInput, "\(data): cannot issue the document: \(error)")
        }
        try OutputFile.create(credential.encoded(), at: out, mode: OutputFile.privateMode, replacing: force)
        let count = elements.nameSpaces.reduce(0) { $0 + $1.1.count }
        if json {
            let issued = JSONReport.object(.issuedCredential, [
                ("docType", .string(docType)),
                ("out", .string(out)),
                ("elements", .int(Int64(count))),
                ("nameSpaces", .object(elements.nameSpaces.map { space in
                    (space.0, JSONValue.array(space.1.map { JSONValue.string($0.identifier) }))
                })),
                ("signed", .string(validity.signed.text)),
                ("validFrom", .string(validity.validFrom.text)),
                ("validUntil", .string(validity.validUntil.text)),
                ("deviceKeyCurve", .string("\(device.curve)")),
                ("documentSigner", .string("\(documentSigner.subject)")),
            ])
            ProgramOutput.standardOutput.writeLine(TerminalText(lines: issued.serialized(pretty: true)))
            return
        }
        ProgramOutput.standardOutput.writeLine(
            "Issued \(docType) with \(TerminalText(count: count, "data element")) in \(TerminalText(count: elements.nameSpaces.count, "name space")), "
                + "valid until \(validity.validUntil.text), device key \(device.curve), to \(out)")
    }

    /// The document signer of `--pki`, checked against its IACA at `time`, its extended key
    /// usage under `rule`.
    private func loadIssuer(at time: Date, rule: DocumentSignerRule) throws(ProgramFailure) -> (DocumentIssuer, Certificate) {
        let documentSigner: Certificate
        let iaca: Certificate
        let key: PrivateKey
        do {
            documentSigner = try single(try CertificateFiles.loadFile(pki + "/ds.pem"), pki + "/ds.pem")
            iaca = try single(try CertificateFiles.loadFile(pki + "/iaca.pem"), pki + "/iaca.pem")
            key = try KeyFiles.loadPrivateKey(pki + "/ds-key.pem")
        } catch {
            throw ProgramFailure(.badTrustInput, "--pki \(error)")
        }
        guard key.publicKey == documentSigner.publicKey else {
            throw ProgramFailure(.badTrustInput, "--pki \(pki): ds-key.pem is not the key of ds.pem")
        }
        let result = CertificateChainValidator(trustAnchors: [iaca]).validate(
            chain: [documentSigner], profile: .documentSigner, acceptingExtendedKeyUsages: rule.acceptedExtendedKeyUsages, at: time)
        guard result.isValid else {
            let failure = result.failures.first
            let reason = failure.map { "\($0)" } ?? "no path"
            throw ProgramFailure(
                .badTrustInput,
                failure?.check == .extendedKeyUsage
                    ? "--pki \(pki): ds.pem cannot sign \(docType): \(reason), which \(rule) requires"
                    : "--pki \(pki): ds.pem does not chain to iaca.pem now: \(reason)")
        }
        return (DocumentIssuer(documentSignerKey: key, documentSignerChain: [documentSigner]), documentSigner)
    }

    private func single(_ certificates: [Certificate], _ path: String) throws(InputError) -> Certificate {
        guard certificates.count == 1, let certificate = certificates.first else {
            throw InputError(.unsupportedContent, source: path, "holds \(certificates.count) certificates, expected one")
        }
        return certificate
    }

    private func loadDeviceKey() throws(ProgramFailure) -> PrivateKey {
        guard let deviceKey else {
            do {
                return try PrivateKey(generating: .p256)
            } catch {
                throw ProgramFailure(.badTrustInput, "cannot make a device key: \(error)")
            }
        }
        do {
            return try KeyFiles.loadPrivateKey(deviceKey)
        } catch {
            throw ProgramFailure(.badTrustInput, "--device-key \(error)")
        }
    }
}
