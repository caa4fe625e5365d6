import Foundation
import MdocTestSupport
import Testing

/// DeviceResponses that other wallets made for online requests, recorded in other projects'
/// tests (Vectors/online-presentations/PROVENANCE.md), verified by `mdoc-reader verify` against
/// the Handover their request parameters make, and refused against the Handover of any other.
struct OnlineThirdPartyResponseTests {
    private static let folder = "\(Vectors.directory)/online-presentations"

    private static func verify(_ file: String, _ arguments: [String]) async throws -> ProgramRunner.Result {
        try await ProgramRunner.run("mdoc-reader", ["verify", "\(folder)/\(file)"] + arguments)
    }

    @Test func theParadymWalletsOpenID4VPResponseVerifiesWithItsClientNonceAndKeyThumbprint() async throws {
        let parameters = [
            "client_id=x509_san_dns:playground.animo.id", "nonce=LMGPB6k--THpBUSkEBvLxmdMIi3Ee1fjHXXUUzBVa04",
            "response_uri=https://playground.animo.id/oid4vp/8caaebcc-d48c-471b-86b0-a534e15c4774/authorize?session=6c115dbc-1364-4e9f-a325-173eeec01a5a",
        ]
        let thumbprint = "jwk_thumbprint=YaKfJpF2JE05fK4m9_gKsZa__LZf4wUrVAx4Bz2rfB4"
        let common = ["--trust", "\(Self.folder)/paradym_iaca.pem", "--at", "2026-01-12T00:00:00Z"]
        let file = "paradym_openid4vp_device_response.hex"

        let verified = try await Self.verify(file, common + ["--handover", "openid4vp:" + (parameters + [thumbprint]).joined(separator: ","), "--json"])
        #expect(verified.status == 0, "\(verified.standardOutput)\n\(verified.standardError)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(verified.standardOutput.utf8)) as? [String: Any])
        #expect(report["outcome"] as? String == "verified")
        let document = try #require((report["documents"] as? [[String: Any]])?.first)
        #expect(document["docType"] as? String == "eu.europa.ec.eudi.pid.1")
        #expect(document["deviceAuthentication"] as? String == "DeviceSignature")
        #expect((document["elements"] as? [[String: Any]])?.allSatisfy { $0["verified"] as? Bool == true } == true)

        // The encrypted response's transcript binds the key's thumbprint; without it, or with
        // another nonce or client, the DeviceSignature does not verify.
        for changed in [
            parameters, [parameters[0], "nonce=LMGPB6k--THpBUSkEBvLxmdMIi3Ee1fjHXXUUzBVa05", parameters[2], thumbprint],
            ["client_id=redirect_uri:" + parameters[2].dropFirst("response_uri=".count), parameters[1], parameters[2], thumbprint],
        ] {
            let refused = try await Self.verify(file, common + ["--handover", "openid4vp:" + changed.joined(separator: ",")])
            #expect(refused.status == 4, "\(changed): \(refused.standardOutput)")
        }
    }

    @Test func theAnnexBPlaygroundResponseVerifiesWithItsEmptyMdocGeneratedNonce() async throws {
        let common = ["--trust", "\(Vectors.directory)/iso18013-5-annex-d/iaca_cert.hex", "--at", "2021-09-25T00:00:00Z"]
        let spec = "iso-oid4vp:client_id=example.com,response_uri=https://example.com/12345/response,nonce=abcdefgh1234567890,mdoc_generated_nonce="
        let verified = try await Self.verify("annex_b_playground_device_response.hex", common + ["--handover", spec])
        #expect(verified.status == 0, "\(verified.standardOutput)\n\(verified.standardError)")
        #expect(verified.standardOutput.contains("Online:      ISO/IEC TS 18013-7:2024 Annex B (OID4VPHandover)"))
        let otherNonce = try await Self.verify("annex_b_playground_device_response.hex", common + ["--handover", spec + "x"])
        #expect(otherNonce.status == 4, "\(otherNonce.standardOutput)")
    }

    @Test func theOpenIDConformanceSuitesResponsePassesDeviceAuthenticationButItsCASignerIsNoDocumentSigner() async throws {
        let spec = "openid4vp:client_id=x509_san_dns:verifier.example.com,nonce=ed441c8c-428e-4b9a-807b-b3873f82e03e,"
            + "response_uri=https://verifier2.localhost/verification-session/9e1f6432-338b-4938-9339-2c194bc76ef4/response"
        let common = ["--trust", "\(Self.folder)/oidf_conformance_signer.pem", "--at", "2025-10-16T00:00:00Z", "--json"]
        let checked = try await Self.verify("oidf_conformance_openid4vp_device_response.hex", common + ["--handover", spec])
        #expect(checked.status == 3, "\(checked.standardOutput)\n\(checked.standardError)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(checked.standardOutput.utf8)) as? [String: Any])
        #expect(report["outcome"] as? String == "issuerAuthenticationFailed")
        let document = try #require((report["documents"] as? [[String: Any]])?.first)
        let checks = try #require(document["checks"] as? [[String: Any]])
        #expect(checks.contains { $0["check"] as? String == "device authentication" && $0["result"] as? String == "passed" })
        #expect(checks.contains { $0["check"] as? String == "issuer signature" && $0["result"] as? String == "passed" })
        let refusedSigner = checks.filter { $0["check"] as? String == "issuer certificate" && $0["result"] as? String == "failed" }
        #expect(refusedSigner.contains { ($0["reason"] as? String)?.contains("cA is true") == true })
        #expect((document["elements"] as? [[String: Any]])?.allSatisfy { $0["verified"] as? Bool == false } == true)

        let otherNonce = try await Self.verify(
            "oidf_conformance_openid4vp_device_response.hex", common + ["--handover", spec.replacingOccurrences(of: "e03e", with: "e03f")])
        let otherReport = try #require(try JSONSerialization.jsonObject(with: Data(otherNonce.standardOutput.utf8)) as? [String: Any])
        let otherChecks = try #require(((otherReport["documents"] as? [[String: Any]])?.first)?["checks"] as? [[String: Any]])
        #expect(otherChecks.contains { $0["check"] as? String == "device authentication" && $0["result"] as? String == "failed" })
    }
}
