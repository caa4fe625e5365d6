import Foundation
import MdocTestSupport
import Testing

/// `mdoc-benchmark keys` with a key in a SoftHSM token and one in a software TPM: what it prints,
/// not the figures. Apart from `BenchmarkCommandTests` because pkcs11-provider opens SoftHSM
/// with RTLD_DEEPBIND, which the sanitizer runtimes refuse (scripts/sanitizers.sh leaves it out).
@Suite struct KeyBenchmarkCommandTests {
    @Test("keys times a key in SoftHSM and in a software TPM beside a software key, as JSON; without a key it is a usage error")
    func keys() async throws {
        let token = try SoftHSMToken()
        defer { token.remove() }
        try token.makeKeyPair("device", id: "01", derive: true)
        let tpm = try SoftwareTPM()
        defer { tpm.stop() }
        let blob = try tpm.makeKey(named: "device.tss2.pem")

        let json = try await ProgramRunner.run(
            "mdoc-benchmark",
            ["keys", "--pkcs11-uri", token.uri(of: "device"), "--module", SoftHSMToken.module, "--tpm2-key-file", blob,
             "--tcti", tpm.tcti, "--iterations", "3", "--json"],
            timeout: 120, environment: ["SOFTHSM2_CONF": token.configurationPath, "MDOC_TOKEN_PIN": token.pin])
        #expect(json.status == 0, "\(json.standardError)")
        let object = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
        let rows = try #require(object?["keys"] as? [[String: Any]])
        #expect(rows.compactMap { ($0["key"] as? String)?.split(separator: " ").first } == ["software", "PKCS#11", "TPM"], "\(json.standardOutput)")
        #expect(rows.allSatisfy { ($0["signatureMedianMicroseconds"] as? Double ?? 0) > 0 && ($0["keyAgreementMedianMicroseconds"] as? Double ?? 0) > 0 })
        #expect(rows.first?["signatureOverSoftware"] as? Double == 1)

        let wrongPIN = try await ProgramRunner.run(
            "mdoc-benchmark", ["keys", "--pkcs11-uri", token.uri(of: "device"), "--module", SoftHSMToken.module, "--iterations", "1"],
            timeout: 120, environment: ["SOFTHSM2_CONF": token.configurationPath, "MDOC_TOKEN_PIN": "000000"])
        #expect(wrongPIN.status == 1)
        #expect(wrongPIN.standardError.contains("refused the PIN"), "\(wrongPIN.standardError)")

        let none = try await ProgramRunner.run("mdoc-benchmark", ["keys"], timeout: 120)
        #expect(none.status == 64)
        #expect(none.standardError.contains("name a key"), "\(none.standardError)")
    }
}
