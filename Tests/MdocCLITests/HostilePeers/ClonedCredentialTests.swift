import Foundation
import MdocCrypto
@testable import MdocSession
import MdocTestPeers
import Testing

/// A cloned credential against the real `mdoc-reader`: the genuine issuer data of the demo mDL
/// (its IssuerSignedItems and the issuer-signed MSO, every digest and signature valid) presented
/// by a device that signs with another key, as a copy made without the device private key must.
/// Device authentication is the anti-cloning check (ISO/IEC 18013-5 9.1.3, 9.3.1): the reader
/// must end with exit 4, mark no element "ok" and export nothing.
@Suite struct ClonedCredentialTests {
    /// What a copy holds: everything the issuer signed, and a device key of the copier's own,
    /// since the original's never leaves its device. (`Credential`'s public initialisers refuse
    /// this pairing; a cloner's software would not.)
    static func clone() throws -> Credential {
        let genuine = try HostileHolder.demoMDL()
        return Credential(
            docType: genuine.docType, issuerSigned: genuine.issuerSigned, deviceKey: try PrivateKey(generating: .p256),
            mobileSecurityObject: genuine.mobileSecurityObject)
    }

    /// Runs `mdoc-reader request --portrait-out` against a hostile holder presenting
    /// `credential` over `sim`; returns the reader's result and whether the portrait file exists.
    static func request(from credential: Credential, json: Bool) async throws -> (ProgramRunner.Result, portrait: Data?) {
        let folder = try LiveSession.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let portrait = folder + "/portrait.jpg"
        let link = SimHostileLink()
        let holder = try HostileHolder(link: link, credential: credential)
        let reader = try BackgroundProgram("mdoc-reader", [
            "request", holder.uri, "--elements", "portrait,family_name", "--portrait-out", portrait,
            "--trust", "Certs/demo/iaca.pem", "--ble-mode", "peripheral", "--transport", link.transport,
            "--timeout", String(HostileProgramTests.timeout),
        ] + (json ? ["--json"] : []), environment: link.environment)
        try await holder.run(until: .requestReceived)
        try await holder.sendResponse()
        let result = await reader.wait(timeout: LiveSession.waitTimeout)
        holder.close()
        return (result, FileManager.default.contents(atPath: portrait))
    }

    @Test func theGenuineCredentialExportsItsPortrait() async throws {
        let (result, portrait) = try await Self.request(from: try HostileHolder.demoMDL(), json: false)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(portrait == FileManager.default.contents(atPath: ProgramRunner.repositoryRoot + "/Samples/portrait.jpg"))
        #expect(result.standardOutput.contains("\n    ok   portrait "), "\(result.standardOutput)")
    }

    @Test func aClonedCredentialExportsNothingAndIsNeverOK() async throws {
        let (result, portrait) = try await Self.request(from: try Self.clone(), json: false)
        #expect(result.status == 4, "\(result.standardError)")
        #expect(portrait == nil)
        #expect(result.standardError.contains(
            "mdoc-reader: the portrait is not verified (document 0: device authentication failed); --portrait-out not written"),
                "\(result.standardError)")
        #expect(result.standardOutput.contains("Document 0: org.iso.18013.5.1.mDL: FAILED (device authentication)"),
                "\(result.standardOutput)")
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("    iss  portrait ") }, "\(result.standardOutput)")
        #expect(lines.contains { $0.hasPrefix("    iss  family_name ") }, "\(result.standardOutput)")
        #expect(!lines.contains { $0.hasPrefix("    ok   portrait") || $0.hasPrefix("    ok   family_name") })
    }

    @Test func aClonedCredentialIsNotVerifiedInJSON() async throws {
        let (result, portrait) = try await Self.request(from: try Self.clone(), json: true)
        #expect(result.status == 4, "\(result.standardError)")
        #expect(portrait == nil)
        let json = try ReaderJSON(result.standardOutput)
        #expect(json.outcome == "deviceAuthenticationFailed")
        let elements = json.documents.first?["elements"] as? [[String: Any]] ?? []
        #expect(elements.compactMap { $0["identifier"] as? String }.sorted() == ["family_name", "portrait"], "\(result.standardOutput)")
        #expect(elements.allSatisfy { $0["issuerAuthenticated"] as? Bool == true && $0["verified"] as? Bool == false },
                "\(result.standardOutput)")
    }
}
