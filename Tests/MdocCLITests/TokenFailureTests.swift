import Foundation
import MdocCrypto
import MdocTestSupport
import Testing

/// A device key in a token or TPM that cannot do what the session needs of it: a key that
/// signs but cannot agree keys asked for DeviceMac (ISO/IEC 18013-5 9.1.3.5), and a TPM or a
/// token that goes away after the engagement was shown. Each session ends with the mdoc's error answer
/// (DeviceResponse status 10, 8.3.2.1.2.3), the holder exits with status 8 naming the key and
/// the `CryptoError` code, and nothing waits for the session's timeout.
@Suite struct TokenFailureTests {
    @Test("a sign-only key in SoftHSM asked for DeviceMac ends the session with status 10 and operationNotPermitted; DeviceSignature works")
    func signOnlyKeyForDeviceMac() async throws {
        let token = try SoftHSMToken()
        defer { token.remove() }
        try token.makeKeyPair("device", id: "01", derive: false)
        let run = try IsolatedRun(["SOFTHSM2_CONF": token.configurationPath, "MDOC_TOKEN_PIN": token.pin])
        defer { run.remove() }
        _ = try await TokenDeviceKeyTests.issueAndImport(
            run, publicKey: PublicKey(derRepresentation: try token.publicKeyDER(of: "device")),
            keyIn: ["--key-in", token.uri(of: "device"), "--module", SoftHSMToken.module])

        let mac = try await TokenDeviceKeyTests.present(run, extra: ["--device-auth", "mac"])

        #expect(mac.holder.status == 8, "\(mac.holder.standardError)")
        #expect(mac.holder.standardError.contains("operationNotPermitted"), "\(mac.holder.standardError)")
        #expect(mac.reader.status != 0)
        #expect(mac.reader.standardError.contains("(status general error (10))"), "\(mac.reader.standardError)")

        let signature = try await TokenDeviceKeyTests.present(run, extra: ["--device-auth", "signature"])
        #expect(signature.holder.status == 0, "\(signature.holder.standardError)")
        #expect(signature.reader.status == 0, "\(signature.reader.standardError)")
    }

    @Test("a TPM key with a PIN presents with it; no PIN, a wrong PIN and the TPM's lock-out each end the holder with status 7 before the engagement")
    func tpmKeyAuthorization() async throws {
        let tpm = try SoftwareTPM()
        defer { tpm.stop() }
        try tpm.setDictionaryAttackProtection(maximumTries: 2, recoverySeconds: 600)
        let blob = try tpm.makeKey(named: "device.tss2.pem", authorization: "4711")
        let run = try IsolatedRun()
        defer { run.remove() }
        let right = run.home + "/right-pin", wrong = run.home + "/wrong-pin"
        try Data("4711\n".utf8).write(to: URL(fileURLWithPath: right))
        try Data("1234\n".utf8).write(to: URL(fileURLWithPath: wrong))
        _ = try await TokenDeviceKeyTests.issueAndImport(
            run, publicKey: PublicKey(derRepresentation: try tpm.publicKeyDER(ofKey: "device.tss2.pem", authorization: "4711")),
            keyIn: ["--key-in", "tpm2:" + tpm.tcti, "--key-file", blob, "--pin-file", right])
        let holder = ["present", "--credential", "mdl", "--yes", "--no-qr", "--timeout", "\(LiveSession.programTimeout)"]

        let session = try await TokenDeviceKeyTests.present(run, extra: ["--pin-file", right])
        #expect(session.holder.status == 0, "\(session.holder.standardError)")
        #expect(session.reader.status == 0, "\(session.reader.standardError)")

        let none = try await run.run("mdoc-holder", holder)
        #expect(none.status == 7)
        #expect(none.standardError.contains("cannot be used (loginFailed): the TPM key \(blob) needs its authorization value (PIN) and none was given"),
                "\(none.standardError)")
        #expect(!none.standardOutput.contains("mdoc:"))

        // No PIN spent no try (the key was not used). Two wrong PINs: the TPM counts each
        // (TPM_RC_AUTH_FAIL), then, at its limit of two, locks its keys out, the right PIN too.
        for _ in 0..<2 {
            let refused = try await run.run("mdoc-holder", holder + ["--pin-file", wrong])
            #expect(refused.status == 7)
            #expect(refused.standardError.contains("cannot be used (loginFailed): the TPM refused the authorization value (PIN) of \(blob): wrong"),
                    "\(refused.standardError)")
            #expect(!refused.standardOutput.contains("mdoc:"))
        }
        let locked = try await run.run("mdoc-holder", holder + ["--pin-file", right])
        #expect(locked.status == 7)
        #expect(locked.standardError.contains("cannot be used (lockedOut): the TPM is in dictionary-attack lock-out after too many wrong PINs"),
                "\(locked.standardError)")
        #expect(!locked.standardOutput.contains("mdoc:"))
    }

    @Test("a TPM that stops after the engagement ends the session with status 10 and keyStoreUnavailable, without waiting for the timeout")
    func tpmGoneMidSession() async throws {
        let tpm = try SoftwareTPM()
        defer { tpm.stop() }
        let blob = try tpm.makeKey(named: "device.tss2.pem")
        let run = try IsolatedRun()
        defer { run.remove() }
        _ = try await TokenDeviceKeyTests.issueAndImport(
            run, publicKey: PublicKey(derRepresentation: try tpm.publicKeyDER(ofKey: "device.tss2.pem")),
            keyIn: ["--key-in", "tpm2:" + tpm.tcti, "--key-file", blob])

        let clock = ContinuousClock()
        let start = clock.now
        let session = try await run.session(
            holder: ["--credential", "mdl", "--yes", "--no-qr"], reader: TokenDeviceKeyTests.request,
            beforeReader: { tpm.stop() })

        #expect(session.holder.status == 8, "\(session.holder.standardError)")
        #expect(session.holder.standardError.contains("keyStoreUnavailable"), "\(session.holder.standardError)")
        // The TSS2 libraries' own log lines are not shown.
        #expect(!session.holder.standardError.contains("ERROR:esys"), "\(session.holder.standardError)")
        #expect(session.reader.status != 0)
        #expect(session.reader.standardError.contains("(status general error (10))"), "\(session.reader.standardError)")
        // An inactivity bound, not a race: the session's own timeout is LiveSession.programTimeout.
        #expect(clock.now - start < .seconds(LiveSession.programTimeout), "the session waited for its timeout")
    }

    @Test("a SoftHSM token removed after the engagement ends the session with status 10 and keyStoreUnavailable")
    func tokenGoneMidSession() async throws {
        let (token, run) = try await TokenDeviceKeyTests.provision()
        defer { run.remove(); token.remove() }

        let session = try await run.session(
            holder: ["--credential", "mdl", "--yes", "--no-qr", "--device-auth", "signature"], reader: TokenDeviceKeyTests.request,
            beforeReader: { token.remove() })

        #expect(session.holder.status == 8, "\(session.holder.standardError)")
        #expect(session.holder.standardError.contains("keyStoreUnavailable"), "\(session.holder.standardError)")
        #expect(session.reader.standardError.contains("(status general error (10))"), "\(session.reader.standardError)")
    }
}
