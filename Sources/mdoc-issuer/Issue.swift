import ArgumentParser
import MdocCBOR
import MdocCommandLine
import MdocCrypto
import MdocFiles
import MdocIssuance
import MdocIssuerData
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

            --device-key may also be the public COSE_Key of a key the holder keeps in a \
            PKCS#11 token or a TPM: the document is issued for it and --out holds the public \
            key only, to be bound to the key with `mdoc-holder import FILE --key-in ...`.

            --doctype takes a docType (a reverse domain name such as org.iso.18013.5.1.mDL) or \
            one of the short names mdl (org.iso.18013.5.1.mDL), pid (eu.europa.ec.eudi.pid.1) \
            and av (eu.europa.ec.av.1), as `mdoc-reader request --doctype` does. An mDL that \
            lacks an element ISO/IEC 18013-5 Table 5 makes mandatory is issued with a warning \
            naming it.

            Negative test material: --signed, --valid-from and --valid-until set the MSO's \
            times as given (an expired, a not yet valid, or a signed-outside-the-certificate \
            document); --ds-not-before, --ds-not-after and --ds-deviation issue the document \
            with a new document signer certificate, made from the PKI's IACA (iaca.pem, \
            iaca-key.pem) like ds.pem but with that validity and those departures from the \
            Annex B profile: no-eku, wrong-eku, no-digital-signature, no-subject-key-id, \
            no-authority-key-id, ca. Its subject gets an organizationalUnitName "TEST: ..." per \
            departure. A document that would fail verification is written as test material: \
            the credential file holds a "testMaterial" note per reason (mdoc inspect and \
            mdoc-holder show them), and the output lists them under TEST MATERIAL. For a \
            document signer or MSO valid in the past, make the PKI with \
            `mdoc-issuer pki --not-before`.

            --status-uri and --status-index put a `status` into the MSO (ISO/IEC 18013-5 second \
            edition): the document's entry in an IETF Token Status List published at the URI, \
            which `mdoc-issuer status-list` writes and a reader fetches to learn whether the \
            document was revoked or suspended. --identifier-list-uri names an identifier list \
            instead (`mdoc-issuer identifier-list` writes it), with the document's identifier \
            (--identifier-list-id, random by default and printed).

            Examples:
              mdoc-issuer issue --pki Certs/demo --doctype mdl --data Samples/mdl.json \\
                --out mdl.mdoc
              mdoc-issuer issue --pki my-pki --doctype pid --data Samples/pid.json \\
                --out pid.mdoc --json
              mdoc-issuer issue --pki my-pki --doctype mdl --data Samples/mdl.json \\
                --out no-eku.mdoc --ds-deviation no-eku
              mdoc-issuer issue --pki my-pki --doctype mdl --data Samples/mdl.json \\
                --out expired.mdoc --valid-from 2021-01-01T00:00:00Z \\
                --valid-until 2022-01-01T00:00:00Z

            Exit codes: 0 issued; 2 the data file is not valid issuer data (the message names \
            the JSON path) or cannot make a document; 7 unusable --pki or --device-key, a test \
            document signer the IACA cannot issue, or --out exists (without --force) or cannot \
            be written; 64 usage error (a --doctype that is neither a short name nor a reverse \
            domain name included).
            """
    )

    /// The longest MSO validity accepted, in days (as for `pki`).
    static let maximumValidDays = PKI.maximumValidDays
    /// The length of a random identifier list id: 16 bytes, as many as a UUID.
    static let identifierListIDBytes = 16
    /// How much shorter than asked the MSO validity must come out, because the document signer
    /// certificate ends first, for a note to say so: a day. A PKI made moments before with the
    /// same number of days cuts a few seconds, which is no news.
    static let validityNoteThreshold: Double = 86_400

    @Option(help: "The PKI directory made by `mdoc-issuer pki`.", completion: .directory)
    var pki: String

    @Option(help: "The document type: a docType such as org.iso.18013.5.1.mDL, or mdl, pid or av.",
            completion: .list(DocTypeNames.completions))
    var doctype: String

    @Option(help: "The data elements: a JSON file (docs/issuer-data-format.md).", completion: .file(extensions: ["json"]))
    var data: String

    @Option(help: "The credential file to write (by convention with the extension .mdoc).", completion: .file())
    var out: String

    @Option(name: .customLong("valid-days"), help: "How many days the MSO is valid from its validFrom (default: 365).")
    var validDays: Int?

    @Option(help: "The MSO validFrom, RFC 3339 (default: now).")
    var validFrom: String?

    @Option(help: "The MSO validUntil, RFC 3339 (default: validFrom plus --valid-days, within the document signer's validity).")
    var validUntil: String?

    @Option(help: "The MSO signed time, RFC 3339 (default: now, or validFrom when that is earlier).")
    var signed: String?

    @Option(name: .customLong("ds-not-before"),
            help: "Issue with a new document signer certificate valid from this time, RFC 3339 (test material when that makes it fail).")
    var documentSignerNotBefore: String?

    @Option(name: .customLong("ds-not-after"),
            help: "Issue with a new document signer certificate valid until this time, RFC 3339 (test material when that makes it fail).")
    var documentSignerNotAfter: String?

    @Option(name: .customLong("ds-deviation"), parsing: .singleValue,
            help: "Issue with a new document signer certificate that breaks the Annex B profile this way (test material); repeat for several.")
    var documentSignerDeviations: [CertificateBuilder.Deviation] = []

    @Option(name: .customLong("device-key"),
            help: "The device private key (PEM or COSE_Key), or the public COSE_Key of a key held by a token or TPM; default a new P-256 key.",
            completion: .file())
    var deviceKey: String?

    @Option(name: .customLong("status-uri"),
            help: "Where the document's status is published: the uri of an IETF Token Status List its MSO names (with --status-index).")
    var statusURI: String?

    @Option(name: .customLong("status-index"), help: "The document's entry in the --status-uri list.")
    var statusIndex: UInt64?

    @Option(name: .customLong("identifier-list-uri"),
            help: "Where the document's status is published as an identifier list (ISO/IEC 18013-5 second edition): the uri its MSO names.")
    var identifierListURI: String?

    @Option(name: .customLong("identifier-list-id"),
            help: "The document's identifier in the --identifier-list-uri list, in hex (default: 16 random bytes, printed).")
    var identifierListID: String?

    @OptionGroup var documentSigner: DocumentSignerOptions

    @Flag(help: "Replace an existing --out file.")
    var force = false

    @Flag(help: "Print what was issued as JSON (docs/json-report.md).")
    var json = false

    func validate() throws {
        guard (statusURI == nil) == (statusIndex == nil) else {
            throw ValidationError("give --status-uri and --status-index together")
        }
        for (name, uri) in [("--status-uri", statusURI), ("--identifier-list-uri", identifierListURI)] {
            if let uri, uri.isEmpty || uri.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == " " }) {
                throw ValidationError("\(name) \"\(uri)\": a URI is non-empty text without spaces or control characters")
            }
        }
        if let identifierListID {
            guard identifierListURI != nil else { throw ValidationError("--identifier-list-id needs --identifier-list-uri") }
            guard let bytes = Hex.decode(identifierListID), !bytes.isEmpty else {
                throw ValidationError("--identifier-list-id \(identifierListID): not a non-empty hex string")
            }
        }
        if let validDays {
            guard (1...Self.maximumValidDays).contains(validDays) else {
                throw ValidationError("--valid-days must be 1 to \(Self.maximumValidDays)")
            }
            guard validUntil == nil else { throw ValidationError("give --valid-days or --valid-until, not both") }
        }
        guard DocTypeNames.isQualified(docType) else {
            throw ValidationError(
                "--doctype \(doctype): neither a short name nor a docType (a reverse domain name such as org.iso.18013.5.1.mDL); the short names are \(DocTypeNames.listText)")
        }
        for (name, value) in [("--valid-from", validFrom), ("--valid-until", validUntil), ("--signed", signed),
                              ("--ds-not-before", documentSignerNotBefore), ("--ds-not-after", documentSignerNotAfter)] {
            if let value, (try? TDate(text: value)) == nil {
                throw ValidationError("\(name) \(value): not an RFC 3339 date-time (for example 2021-01-01T00:00:00Z)")
            }
        }
    }

    /// The date an option checked by ``validate()`` gives, or `nil`.
    private func date(_ option: String?) -> Date? {
        option.flatMap { try? TDate(text: $0) }?.date
    }

    /// Whether the document gets a new document signer certificate of its own.
    private var makesDocumentSigner: Bool {
        documentSignerNotBefore != nil || documentSignerNotAfter != nil || !documentSignerDeviations.isEmpty
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
        var (issuer, documentSigner, iaca) = try loadIssuer(at: now, rule: rule)
        if let statusURI, let statusIndex {
            issuer.statusListReference = RevocationQuery.StatusListReference(index: statusIndex, uri: statusURI)
        }
        if let identifierListURI {
            // 18013-5 second edition 12.3.6.4: the identifier is unique per MSO and random, so that
            // it links no two presentations but through the list.
            let identifier = identifierListID.flatMap(Hex.decode) ?? (0..<Self.identifierListIDBytes).map { _ in UInt8.random(in: .min ... .max) }
            issuer.identifierListReference = RevocationQuery.IdentifierListReference(identifier: identifier, uri: identifierListURI)
        }
        let device = try loadDeviceKey()
        let elements: IssuerData
        do {
            elements = try IssuerData.load(data)
        } catch {
            throw ProgramFailure(.malformedInput, "\(error)")
        }
        let validity = validityInfo(now: now, documentSigner: documentSigner)
        let notes = TestMaterialNotes.notes(documentSigner: documentSigner, iaca: iaca, rule: rule, validity: validity, at: now)
        let encoded: [UInt8]
        do {
            switch device {
            case let .software(key) where notes.isEmpty:
                encoded = try issuer.issueCredential(docType: docType, nameSpaces: elements.nameSpaces, deviceKey: key, validityInfo: validity)
                    .encoded()
            case let .software(key):
                encoded = try issuer.issueTestCredential(
                    docType: docType, nameSpaces: elements.nameSpaces, deviceKey: key, validityInfo: validity, testMaterial: notes).encoded()
            case let .held(key):
                guard notes.isEmpty else {
                    throw ProgramFailure(.badTrustInput, "--device-key \(deviceKey ?? ""): test material is issued for a private device key, not a public one")
                }
                let issuerSigned = try issuer.issue(docType: docType, nameSpaces: elements.nameSpaces, deviceKey: key, validityInfo: validity)
                encoded = Credential.unboundCBOR(docType: docType, issuerSigned: issuerSigned, deviceKey: key).encoded()
            }
        } catch let failure as ProgramFailure {
            throw failure
        } catch {
            throw ProgramFailure(.malformedInput, "\(data): cannot issue the document: \(error)")
        }
        try OutputFile.create(encoded, at: out, mode: OutputFile.privateMode, replacing: force)
        warnOfMissingMandatoryElements(elements)
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
                ("testMaterial", .array(notes.map(JSONValue.string))),
            ] + (issuer.identifierListReference.map { [("identifierListID", JSONValue.string(Hex.encode($0.identifier)))] } ?? []))
            ProgramOutput.standardOutput.writeLine(TerminalText(lines: issued.serialized(pretty: true)))
            return
        }
        ProgramOutput.standardOutput.writeLine(
            "Issued \(docType) with \(TerminalText(count: count, "data element")) in \(TerminalText(count: elements.nameSpaces.count, "name space")), "
                + "valid until \(validity.validUntil.text), device key \(device.curve), to \(out)")
        if let reference = issuer.identifierListReference {
            ProgramOutput.standardOutput.writeLine("Its status: identifier \(Hex.encode(reference.identifier)) of the identifier list \(reference.uri)")
        }
        if !notes.isEmpty {
            ProgramOutput.standardOutput.writeLine("TEST MATERIAL, made to fail verification (the credential file says so too):")
            for note in notes {
                ProgramOutput.standardOutput.writeLine("  - \(note)")
            }
        }
    }

    /// The MSO's ValidityInfo: the times given, else validFrom now, signed at validFrom or now
    /// whichever is earlier, and validUntil `--valid-days` after validFrom but not past the
    /// document signer certificate (with a note when that cuts it by ``validityNoteThreshold``
    /// or more).
    private func validityInfo(now: Date, documentSigner: Certificate) -> ValidityInfo {
        let from = date(validFrom) ?? now
        let signedAt = date(signed) ?? min(now, from)
        let days = validDays ?? 365
        var until = date(validUntil) ?? from.addingTimeInterval(Double(days) * 86_400)
        if validUntil == nil, until > documentSigner.notValidAfter, from < documentSigner.notValidAfter {
            if until.timeIntervalSince(documentSigner.notValidAfter) >= Self.validityNoteThreshold {
                ProgramOutput.standardError.write(
                    "mdoc-issuer: note: the MSO validity ends with the document signer certificate, \(TDate(documentSigner.notValidAfter).text), not after --valid-days \(days)\n")
            }
            until = documentSigner.notValidAfter
        }
        return ValidityInfo(signed: TDate(signedAt), validFrom: TDate(from), validUntil: TDate(until))
    }

    /// A warning naming the data elements ISO/IEC 18013-5 Table 5 makes mandatory in an mDL that
    /// the data lacks.
    private func warnOfMissingMandatoryElements(_ elements: IssuerData) {
        guard docType == DocType.mDL else { return }
        let present = Set(elements.nameSpaces.first { $0.0 == NameSpace.mDL }?.1.map(\.identifier) ?? [])
        let missing = DataElementCatalogue.mandatoryMDLElements.filter { !present.contains($0) }
        guard !missing.isEmpty else { return }
        ProgramOutput.standardError.writeLine(
            "mdoc-issuer: warning: the mDL lacks \(missing.joined(separator: ", ")), mandatory in \(NameSpace.mDL) (ISO/IEC 18013-5 7.2.1, Table 5)")
    }

    /// The issuer of the document and its document signer certificate, and the PKI's IACA: the
    /// document signer of `--pki`, checked against the IACA at `time` with its extended key
    /// usage under `rule`; or, for test material, a new one the IACA issues now.
    private func loadIssuer(at time: Date, rule: DocumentSignerRule) throws(ProgramFailure) -> (DocumentIssuer, Certificate, Certificate) {
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
        if makesDocumentSigner {
            let test = try testDocumentSigner(like: documentSigner, iaca: iaca, at: time)
            return (DocumentIssuer(documentSignerKey: test.key, documentSignerChain: [test.certificate]), test.certificate, iaca)
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
        return (DocumentIssuer(documentSignerKey: key, documentSignerChain: [documentSigner]), documentSigner, iaca)
    }

    /// A new document signer certificate with the `--ds-*` validity and deviations, issued by
    /// the PKI's IACA with iaca-key.pem.
    private func testDocumentSigner(like template: Certificate, iaca: Certificate, at time: Date) throws(ProgramFailure) -> TestDocumentSigner {
        let iacaKey: PrivateKey
        do {
            iacaKey = try KeyFiles.loadPrivateKey(pki + "/iaca-key.pem")
        } catch {
            throw ProgramFailure(.badTrustInput, "--pki \(error) (a test document signer is issued with the IACA's key)")
        }
        do {
            return try TestDocumentSigner(
                like: template, notBefore: date(documentSignerNotBefore), notAfter: date(documentSignerNotAfter),
                deviations: documentSignerDeviations, iaca: iaca, iacaKey: iacaKey, at: time)
        } catch {
            throw ProgramFailure(.badTrustInput, "--pki \(pki): cannot make the test document signer: \(error.reason)")
        }
    }

    private func single(_ certificates: [Certificate], _ path: String) throws(InputError) -> Certificate {
        guard certificates.count == 1, let certificate = certificates.first else {
            throw InputError(.unsupportedContent, source: path, "holds \(certificates.count) certificates, expected one")
        }
        return certificate
    }

    /// The device key the document is issued for.
    private enum DeviceKey {
        /// A private key the credential file holds.
        case software(PrivateKey)
        /// The public key of a private key the holder keeps in a token or a TPM.
        case held(PublicKey)

        /// The key's curve.
        var curve: Curve {
            switch self {
            case let .software(key): return key.curve
            case let .held(key): return key.curve
            }
        }
    }

    private func loadDeviceKey() throws(ProgramFailure) -> DeviceKey {
        guard let deviceKey else {
            do {
                return .software(try PrivateKey(generating: .p256))
            } catch {
                throw ProgramFailure(.badTrustInput, "cannot make a device key: \(error)")
            }
        }
        do {
            if let key = try KeyFiles.loadPublicCOSEKey(deviceKey) {
                return .held(key)
            }
            return .software(try KeyFiles.loadPrivateKey(deviceKey))
        } catch {
            throw ProgramFailure(.badTrustInput, "--device-key \(error)")
        }
    }
}
