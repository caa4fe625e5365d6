import Foundation
import MdocCrypto
import MdocTestSupport
import Testing

/// User presence with `mdoc-holder present --unlock-each-session --keep-running`: the PIN is
/// read before each session and the key released when the session ends, so a session whose PIN
/// is wrong presents nothing although the one before it had the right PIN (the token logged out,
/// the TPM checking the key's authorization value again), and the end of the input ends the
/// holder with status 7.
@Suite struct UnlockEachSessionTests {
    /// Runs a holder of the stored `mdl` that unlocks each session: the right PIN `pin` for the
    /// first session, which a reader reads, then a wrong one; returns the holder's result once its
    /// input ended.
    static func rightThenWrong(_ run: IsolatedRun, pin: String) async throws -> ProgramRunner.Result {
        let holder = try run.start("mdoc-holder", [
            "present", "--credential", "mdl", "--yes", "--no-qr", "--keep-running", "--unlock-each-session",
            "--timeout", "\(LiveSession.programTimeout)",
        ])
        let prompt = "PIN or passphrase of the device key, for the next session: "
        #expect(await holder.waitForStandardError(containing: prompt, count: 1, timeout: LiveSession.waitTimeout), "\(holder.standardError)")
        holder.send(pin + "\n")
        guard let uri = await holder.line(startingWith: "mdoc:", number: 1, timeout: LiveSession.waitTimeout) else {
            let result = await holder.terminate()
            throw LiveSessionError("mdoc-holder printed no mdoc: URI (status \(result.status)): \(result.standardError)")
        }
        let reader = try await run.run(
            "mdoc-reader", ["request", uri] + TokenDeviceKeyTests.request + ["--timeout", "\(LiveSession.programTimeout)"])
        #expect(reader.status == 0, "\(reader.standardError)")

        #expect(await holder.waitForStandardError(containing: prompt, count: 2, timeout: LiveSession.waitTimeout), "\(holder.standardError)")
        holder.send("0000-not-the-pin\n")
        #expect(await holder.waitForStandardError(containing: prompt, count: 3, timeout: LiveSession.waitTimeout), "\(holder.standardError)")
        holder.closeInput()
        let result = await holder.wait(timeout: LiveSession.waitTimeout)
        #expect(result.status == 7, "\(result.standardError)")
        #expect(result.standardError.contains("--unlock-each-session: standard input ended"), "\(result.standardError)")
        // One engagement only: none was shown for the session with the wrong PIN.
        #expect(result.standardOutput.split(separator: "\n").filter { $0.hasPrefix("mdoc:") }.count == 1, "\(result.standardOutput)")
        #expect(!result.standardError.contains("0000-not-the-pin") && !result.standardError.contains(pin), "a PIN was echoed")
        return result
    }

    @Test("a SoftHSM token is logged out after each session: the right PIN, then a wrong one, presents once")
    func token() async throws {
        let (token, run) = try await TokenDeviceKeyTests.provision()
        defer { run.remove(); token.remove() }
        // The PIN of the environment is not read with --unlock-each-session.
        let result = try await Self.rightThenWrong(run, pin: token.pin)
        #expect(result.standardError.contains("cannot be used (loginFailed)"), "\(result.standardError)")
    }

    @Test("a TPM key with a PIN is checked again for each session: the right PIN, then a wrong one, presents once")
    func tpmKey() async throws {
        let tpm = try SoftwareTPM()
        defer { tpm.stop() }
        let blob = try tpm.makeKey(named: "device.tss2.pem", authorization: "4711")
        let run = try IsolatedRun(["MDOC_TOKEN_PIN": "4711"])
        defer { run.remove() }
        _ = try await TokenDeviceKeyTests.issueAndImport(
            run, publicKey: PublicKey(derRepresentation: try tpm.publicKeyDER(ofKey: "device.tss2.pem", authorization: "4711")),
            keyIn: ["--key-in", "tpm2:" + tpm.tcti, "--key-file", blob])
        let result = try await Self.rightThenWrong(run, pin: "4711")
        #expect(result.standardError.contains("the TPM refused the authorization value (PIN)"), "\(result.standardError)")
    }
}
