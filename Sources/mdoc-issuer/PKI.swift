import ArgumentParser
import MdocCommandLine
import MdocCrypto
import MdocFiles
import MdocModel
import MdocStores
import MdocTerminal
import MdocText

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `mdoc-issuer pki`: a test PKI of the four ISO/IEC 18013-5 Annex B certificates.
struct PKI: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pki",
        abstract: "Make a test PKI: IACA, document signer, reader root and reader certificates with their keys.",
        discussion: """
            Writes into DIR (created, mode 0700, if missing) the ISO/IEC 18013-5 Annex B \
            certificates and their private keys, each certificate valid for --valid-days from now \
            (or from --not-before):

              iaca.pem          IACA root (self-signed CA, pathLenConstraint 0)
              ds.pem            document signer, issued by the IACA (EKU 1.0.18013.5.1.2)
              reader-root.pem   mdoc reader root (self-signed CA, pathLenConstraint 0)
              reader.pem        reader authentication, issued by the reader root (EKU 1.0.18013.5.1.6)

            and iaca-key.pem, ds-key.pem, reader-root-key.pem, reader-key.pem (PKCS#8 PEM, mode \
            0600 from creation). With --vical, also a VICAL provider's certificates (ISO/IEC \
            18013-5 Annex C.1.7), which `mdoc-issuer vical --pki DIR` signs trust lists with:

              vical-root.pem    VICAL root (self-signed CA, pathLenConstraint 0)
              vical-signer.pem  VICAL signer, issued by the VICAL root (EKU 1.0.18013.5.1.8)

            and vical-root-key.pem, vical-signer-key.pem. With --reader-public-key, reader.pem \
            certifies that public key, of a reader authentication key held by a PKCS#11 token \
            or a TPM (`mdoc-reader request --reader-key pkcs11:...`), and no reader-key.pem is \
            written. --reader-not-after ends reader.pem's validity alone, earlier than the \
            others' (in the past for an expired reader certificate of a root still valid). \
            Existing files are kept unless --force is given. --ds-eku gives \
            the document signer other extended key usages, as other mdoc ecosystems' issuers \
            have: 1.3.130.2.0.0.1.2 for an EU PID Provider (ARF PID Rulebook), 1.0.23220.4.1.2 \
            for ISO/IEC TS 23220-4 mdocs. The folder can be passed to `mdoc-reader --trust` as \
            it is: only iaca.pem (and reader-root.pem, and vical-root.pem, which issues no \
            document signer) are taken as trust anchors.

            Examples:
              mdoc-issuer pki ./pki --curve p256 --valid-days 365 --country US
              mdoc-issuer pki ./pki --vical
              mdoc-issuer pki ./eu-pki --country BE --ds-eku 1.3.130.2.0.0.1.2
              mdoc-issuer pki ./pki --reader-public-key reader.cose
              mdoc-issuer pki ./expired --not-before 2026-01-01T00:00:00Z \\
                --valid-days 3650 --reader-not-after 2026-01-02T00:00:00Z

            Exit codes: 0 written; 7 a file exists (without --force) or cannot be written, \
            --reader-public-key is not a usable public COSE_Key, or --reader-not-after is not \
            within the reader root's validity; 64 usage error.
            """
    )

    /// The file names, in the order they are written.
    static let certificateFiles = ["iaca.pem", "ds.pem", "reader-root.pem", "reader.pem"]
    static let keyFiles = ["iaca-key.pem", "ds-key.pem", "reader-root-key.pem", "reader-key.pem"]
    /// The VICAL provider's file names, written after the others with `--vical`.
    static let vicalCertificateFiles = ["vical-root.pem", "vical-signer.pem"]
    static let vicalKeyFiles = ["vical-root-key.pem", "vical-signer-key.pem"]
    /// The longest validity accepted, in days: about 100 years, far past any test need, and a
    /// bound that keeps the dates within the X.509 and RFC 3339 year range.
    static let maximumValidDays = 36_525

    @Argument(help: "The directory to write the PKI into.", completion: .directory)
    var directory: String

    @Option(help: "The curve of every key.")
    var curve: CurveName = .p256

    @Option(name: .customLong("valid-days"), help: "How many days every certificate is valid from --not-before.")
    var validDays: Int = 365

    @Option(name: .customLong("not-before"),
            help: "The start of every certificate's validity, RFC 3339 (default: now); an earlier one makes documents issued in the past possible, as test material needs.")
    var notBefore: String?

    @Option(help: "The countryName of every certificate (ISO 3166-1 alpha-2, upper case).")
    var country: String = "US"

    @Option(help: "The name the common names start with.")
    var name: String = "swift-mdoc Test"

    @Option(help: "The URI of the issuerAltName; the CRL distribution points are below it.")
    var url: String = "https://issuer.example"

    @Option(name: .customLong("ds-eku"), parsing: .singleValue,
            help: ArgumentHelp(
                "An extendedKeyUsage purpose of the document signer (a dotted OID), in place of 1.0.18013.5.1.2; repeat for several.",
                valueName: "oid"))
    var documentSignerPurposes: [String] = []

    @Option(name: .customLong("reader-not-after"),
            help: "The end of reader.pem's validity alone, RFC 3339 (default: the others'); one in the past makes the expired reader certificate of a root that is still valid, as `mdoc-reader test-holder --expired-reader-cert` needs.")
    var readerNotAfter: String?

    @Option(name: .customLong("reader-public-key"),
            help: "Certify this public key (a public COSE_Key, as `mdoc-holder key generate --out` writes) in reader.pem, for a reader key held by a token or TPM; no reader-key.pem is written.",
            completion: .file())
    var readerPublicKey: String?

    @Flag(help: "Also make a VICAL provider's root and VICAL signer (ISO/IEC 18013-5 Annex C.1.7) for `mdoc-issuer vical`.")
    var vical = false

    @Flag(help: "Replace existing files.")
    var force = false

    @Flag(help: "Print what was written as JSON (docs/json-report.md).")
    var json = false

    func validate() throws {
        guard (1...Self.maximumValidDays).contains(validDays) else {
            throw ValidationError("--valid-days must be 1 to \(Self.maximumValidDays)")
        }
        for (option, value) in [("--not-before", notBefore), ("--reader-not-after", readerNotAfter)] {
            if let value, (try? TDate(text: value)) == nil {
                throw ValidationError("\(option) \(value): not an RFC 3339 date-time (for example 2021-01-01T00:00:00Z)")
            }
        }
        for purpose in documentSignerPurposes {
            if let problem = ObjectIdentifierSyntax.problem(in: purpose) {
                throw ValidationError("--ds-eku \(purpose): not a dotted object identifier: \(problem)")
            }
        }
    }

    func run() throws {
        ProgramFailure.reporting(program: "mdoc-issuer") { () throws(ProgramFailure) in
            try makePKI()
        }
    }

    /// The certificate files written, in order: the four of Annex B, then the VICAL provider's
    /// with `--vical`.
    private var certificateFiles: [String] { Self.certificateFiles + (vical ? Self.vicalCertificateFiles : []) }
    /// The private key files, in the order of ``certificateFiles``.
    private var keyFiles: [String] { Self.keyFiles + (vical ? Self.vicalKeyFiles : []) }

    private func makePKI() throws(ProgramFailure) {
        let paths = (certificateFiles + keyFiles).map { directory + "/" + $0 }
        if !force, let existing = paths.first(where: OutputFile.exists) {
            throw ProgramFailure(.badTrustInput, "\(existing): exists; give --force to replace the PKI")
        }
        let readerKey = try loadReaderPublicKey()
        let pki: [(certificate: Certificate, key: PrivateKey?)]
        do {
            pki = try build(readerPublicKey: readerKey)
        } catch {
            throw ProgramFailure(.badTrustInput, "cannot make the PKI: \(error.reason)")
        }
        try OutputFile.makeDirectory(directory)
        for (index, entry) in pki.enumerated() {
            if let key = entry.key {
                try OutputFile.create(
                    Array(key.pemRepresentation.utf8), at: directory + "/" + keyFiles[index], mode: OutputFile.privateMode, replacing: force)
            }
            try OutputFile.create(
                Array(entry.certificate.pemRepresentation.utf8), at: directory + "/" + certificateFiles[index],
                mode: OutputFile.publicMode, replacing: force)
        }
        let until = pki.first.map { TDate($0.certificate.notValidAfter).text } ?? ""
        if json {
            let written = JSONReport.object(.pki, [
                ("directory", .string(directory)),
                ("curve", .string("\(curve.curve)")),
                ("validUntil", .string(until)),
                ("certificates", .array(pki.enumerated().map { index, entry in
                    .object([
                        ("file", .string(certificateFiles[index])),
                        ("keyFile", entry.key == nil ? .null : .string(keyFiles[index])),
                        ("subject", .string("\(entry.certificate.subject)")),
                        ("serialNumber", .string("\(entry.certificate.serialNumber)")),
                        ("extendedKeyUsage", .array((entry.certificate.extendedKeyUsage ?? []).map(JSONValue.string))),
                    ])
                })),
            ])
            ProgramOutput.standardOutput.writeLine(TerminalText(lines: written.serialized(pretty: true)))
            return
        }
        ProgramOutput.standardOutput.writeLine("Wrote a \(curve.curve) test PKI valid until \(until) to \(directory):")
        for (index, entry) in pki.enumerated() {
            let purposes = entry.certificate.extendedKeyUsage.map { "  EKU \($0.joined(separator: ", "))" } ?? ""
            ProgramOutput.standardOutput.writeLine(
                "  \(certificateFiles[index])  \(entry.certificate.subject)  serial \(entry.certificate.serialNumber)\(purposes)")
        }
    }

    /// The public key of `--reader-public-key`, when given.
    private func loadReaderPublicKey() throws(ProgramFailure) -> PublicKey? {
        guard let readerPublicKey else { return nil }
        let key: PublicKey?
        do {
            key = try KeyFiles.loadPublicCOSEKey(readerPublicKey)
        } catch {
            throw ProgramFailure(.badTrustInput, "--reader-public-key \(error)")
        }
        guard let key else {
            throw ProgramFailure(.badTrustInput, "--reader-public-key \(readerPublicKey): not a public COSE_Key (RFC 9052 section 7, without d)")
        }
        return key
    }

    /// IACA, document signer, reader root, reader (for `readerPublicKey`, whose private key is
    /// not here, when given), and with `--vical` VICAL root and VICAL signer: certificates and
    /// keys.
    private func build(readerPublicKey: PublicKey?) throws(CryptoError) -> [(certificate: Certificate, key: PrivateKey?)] {
        let now = notBefore.flatMap { try? TDate(text: $0) }?.date ?? Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let end = now.addingTimeInterval(Double(validDays) * 86_400)
        let base = url.hasSuffix("/") ? String(url.dropLast()) : url
        func builder(
            _ profile: CertificateBuilder.Profile, _ commonName: String, crl: String, purposes: [String]? = nil
        ) -> CertificateBuilder {
            CertificateBuilder(
                profile: profile, subject: .init(commonName: "\(name) \(commonName)", country: country),
                notValidBefore: now, notValidAfter: end,
                issuerAlternativeName: .uri(base), crlDistributionPoint: "\(base)/crl/\(crl).crl",
                extendedKeyUsageOIDs: purposes)
        }
        let curve = self.curve.curve
        let iacaKey = try PrivateKey(generating: curve)
        let iaca = try builder(.iaca, "IACA", crl: "iaca").selfSigned(key: iacaKey)
        let dsKey = try PrivateKey(generating: curve)
        let ds = try builder(
            .documentSigner, "Document Signer", crl: "iaca", purposes: documentSignerPurposes.isEmpty ? nil : documentSignerPurposes
        ).issued(for: dsKey.publicKey, by: iaca, signingKey: iacaKey)
        let readerRootKey = try PrivateKey(generating: curve)
        let readerRoot = try builder(.readerRoot, "Reader Root", crl: "reader-root").selfSigned(key: readerRootKey)
        let readerKey: PrivateKey?
        let certified: PublicKey
        if let readerPublicKey {
            (readerKey, certified) = (nil, readerPublicKey)
        } else {
            let key = try PrivateKey(generating: curve)
            (readerKey, certified) = (key, key.publicKey)
        }
        var readerBuilder = builder(.readerAuthentication, "Reader", crl: "reader-root")
        if let end = readerNotAfter.flatMap({ try? TDate(text: $0) })?.date {
            readerBuilder.notValidAfter = end
        }
        let reader = try readerBuilder.issued(for: certified, by: readerRoot, signingKey: readerRootKey)
        let pki: [(certificate: Certificate, key: PrivateKey?)] = [(iaca, iacaKey), (ds, dsKey), (readerRoot, readerRootKey), (reader, readerKey)]
        guard vical else { return pki }
        let vicalRootKey = try PrivateKey(generating: curve)
        let vicalRoot = try builder(.iaca, "VICAL Root", crl: "vical-root").selfSigned(key: vicalRootKey)
        let vicalSignerKey = try PrivateKey(generating: curve)
        let vicalSigner = try builder(
            .documentSigner, "VICAL Signer", crl: "vical-root", purposes: [CertificateProfile.vicalSignerOID]
        ).issued(for: vicalSignerKey.publicKey, by: vicalRoot, signingKey: vicalRootKey)
        return pki + [(vicalRoot, vicalRootKey), (vicalSigner, vicalSignerKey)]
    }
}
