import Foundation
import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel
import MdocSession
import Testing

/// `mdoc-issuer pki --vical` end to end: the VICAL provider's files (ISO/IEC 18013-5 Annex
/// C.1.7) are written with private keys 0600, and the VICAL signer validates to the VICAL root.
@Suite struct VICALCommandTests {
    static let vicalCertificateFiles = ["vical-root.pem", "vical-signer.pem"]
    static let vicalKeyFiles = ["vical-root-key.pem", "vical-signer-key.pem"]

    static func certificate(_ path: String) throws -> Certificate {
        try Certificate(pemEncoded: try IssuerCommandTests.text(path))
    }

    static func signedVICAL(_ path: String) throws -> SignedVICAL {
        try SignedVICAL(encoded: Array(try #require(FileManager.default.contents(atPath: path))))
    }

    /// `mdoc-issuer vical --pki pki --provider "Test provider" ... --out out` with `options`.
    static func vical(pki: String, out: String, _ options: [String]) async throws -> ProgramRunner.Result {
        try await ProgramRunner.run("mdoc-issuer", ["vical", "--pki", pki, "--provider", "Test provider", "--out", out] + options)
    }

    // MARK: pki --vical

    @Test func pkiWithVICALWritesTheProviderRootAndSigner() async throws {
        let folder = try IssuerCommandTests.temporaryDirectory()
        defer { IssuerCommandTests.remove(folder) }
        let directory = try await IssuerCommandTests.makePKI(in: folder, ["--vical", "--curve", "p384", "--valid-days", "30", "--country", "NL"])
        for file in Self.vicalKeyFiles {
            #expect(try IssuerCommandTests.mode("\(directory)/\(file)") == 0o600, "\(file)")
        }
        for file in Self.vicalCertificateFiles {
            #expect(try IssuerCommandTests.mode("\(directory)/\(file)") == 0o644, "\(file)")
        }
        var certificates: [Certificate] = []
        for (certificateFile, keyFile) in zip(Self.vicalCertificateFiles, Self.vicalKeyFiles) {
            let certificate = try Self.certificate("\(directory)/\(certificateFile)")
            let key = try PrivateKey(pemRepresentation: try IssuerCommandTests.text("\(directory)/\(keyFile)"))
            #expect(key.curve == .p384)
            #expect(key.publicKey == certificate.publicKey, "\(keyFile)")
            #expect(certificate.subject.hasPrefix("C=NL, "))
            #expect(certificate.notValidAfter.timeIntervalSince(certificate.notValidBefore) == 30 * 86_400)
            certificates.append(certificate)
        }
        let (root, signer) = (certificates[0], certificates[1])
        #expect(root.isSelfSigned)
        #expect(signer.extendedKeyUsage == [CertificateProfile.vicalSignerOID])
        let validator = CertificateChainValidator(trustAnchors: [root])
        #expect(validator.validate(chain: [signer], profile: .vicalSigner, at: Date()).isValid)
        #expect(!validator.validate(chain: [signer], profile: .documentSigner, at: Date()).isValid)
        let iaca = try Self.certificate("\(directory)/iaca.pem")
        #expect(!CertificateChainValidator(trustAnchors: [iaca]).validate(chain: [signer], profile: .vicalSigner, at: Date()).isValid)
    }

    @Test func pkiListsTheVICALFilesOnlyWithVICAL() async throws {
        let folder = try IssuerCommandTests.temporaryDirectory()
        defer { IssuerCommandTests.remove(folder) }
        let text = try await ProgramRunner.run("mdoc-issuer", ["pki", folder + "/text", "--vical"])
        #expect(text.status == 0, "\(text.standardError)")
        #expect(text.standardOutput.contains("  vical-signer.pem  C=US, CN=swift-mdoc Test VICAL Signer  serial "))
        #expect(text.standardOutput.contains("EKU \(CertificateProfile.vicalSignerOID)"))
        let json = try await ProgramRunner.run("mdoc-issuer", ["pki", folder + "/json", "--vical", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let files = try #require(object["certificates"] as? [[String: Any]]).map { $0["keyFile"] as? String }
        #expect(files == IssuerCommandTests.keyFiles + Self.vicalKeyFiles)
        let plain = try await ProgramRunner.run("mdoc-issuer", ["pki", folder + "/plain"])
        #expect(!plain.standardOutput.contains("vical"))
        for file in Self.vicalCertificateFiles + Self.vicalKeyFiles {
            #expect(!FileManager.default.fileExists(atPath: "\(folder)/plain/\(file)"), "\(file)")
        }
        // --force replaces the VICAL files too; without it the first existing one is named.
        let refused = try await ProgramRunner.run("mdoc-issuer", ["pki", folder + "/plain", "--vical"])
        #expect(refused.status == 7)
        #expect(refused.standardError.contains("\(folder)/plain/iaca.pem: exists; give --force"))
    }
}
