import Foundation
import Glibc
import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocTestSupport
import Testing

/// A device key held by a PKCS#11 token is in nothing a run of the programs writes: a key whose
/// bytes the test knows is written into a SoftHSM token, the known copy removed, and a whole run
/// (issue for the key, bind, list, show, inspect, present with both sides capturing the session
/// with debug logs) is searched for the private scalar in every encoding the programs use (the
/// raw bytes, hex, base64 and base64url), in every file of the run's home and every line the
/// programs printed. The token's own directory is not searched: SoftHSM keeps the key there,
/// encrypted under its PIN.
///
/// A device key held by a TPM is not in the holder's memory either: the core of a holder that
/// has just authenticated with it is searched for the scalar, in the byte order of its encodings
/// and in the reversed order of OpenSSL's BIGNUM words on a little-endian machine. (A SoftHSM
/// token is a library inside the holder's process, so its keys are in the holder's memory while
/// it runs; a smart card or HSM, like the TPM, is a device of its own.)
@Suite struct TokenKeyExposureTests {
    /// The encodings of `bytes` a program could write: raw, hex (both cases), base64, base64url.
    static func encodings(of bytes: [UInt8]) -> [[UInt8]] {
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        let base64 = Data(bytes).base64EncodedString()
        let base64URL = base64.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        // Base64 of the scalar starts on a 3-byte boundary only where the scalar does: search the
        // part of it that does not depend on what came before (from its fourth character on).
        return [bytes, Array(hex.utf8), Array(hex.uppercased().utf8), Array(base64.dropFirst(4).dropLast(4).utf8),
                Array(base64URL.dropFirst(4).dropLast(4).utf8)]
    }

    /// Whether `haystack` holds any of `needles`.
    static func holds(_ haystack: [UInt8], anyOf needles: [[UInt8]]) -> Bool {
        haystack.withUnsafeBytes { haystack in
            needles.contains { needle in
                needle.withUnsafeBytes { needle in
                    guard let base = haystack.baseAddress, let first = needle.first, haystack.count >= needle.count else { return false }
                    // memchr to each candidate first byte, memcmp for the rest: a core is megabytes.
                    var start = 0
                    while start <= haystack.count - needle.count,
                          let found = memchr(base + start, Int32(first), haystack.count - needle.count + 1 - start) {
                        let offset = base.distance(to: UnsafeRawPointer(found))
                        if memcmp(found, needle.baseAddress!, needle.count) == 0 { return true }
                        start = offset + 1
                    }
                    return false
                }
            }
        }
    }

    /// The core of a `mdoc-holder present --keep-running` of `holder`'s arguments, written by
    /// gdb's `gcore` once one session with the demo reader verified and the holder shows its next
    /// engagement; the holder is then stopped.
    static func holderCore(_ run: IsolatedRun, holder arguments: [String]) async throws -> [UInt8] {
        let holder = try run.start(
            "mdoc-holder", ["present", "--yes", "--no-qr", "--keep-running", "--timeout", "\(LiveSession.programTimeout)"] + arguments)
        holder.closeInput()
        guard let uri = await holder.line(startingWith: "mdoc:", number: 1, timeout: LiveSession.waitTimeout) else {
            let result = await holder.terminate()
            throw LiveSessionError("mdoc-holder printed no mdoc: URI (status \(result.status)): \(result.standardError)")
        }
        let reader = try await run.run(
            "mdoc-reader", ["request", uri] + TokenDeviceKeyTests.request + ["--timeout", "\(LiveSession.programTimeout)"])
        #expect(reader.status == 0, "\(reader.standardError)")
        let next = await holder.line(startingWith: "mdoc:", number: 2, timeout: LiveSession.waitTimeout)
        #expect(next != nil, "the holder showed no next engagement: \(holder.standardError)")
        let core = run.home + "/holder.core"
        let gcore = try await run.tool("gcore", ["-o", core, "\(holder.processIdentifier)"])
        _ = await holder.terminate()
        let written = core + ".\(holder.processIdentifier)"
        #expect(gcore.status == 0, "\(gcore.standardError)")
        defer { try? FileManager.default.removeItem(atPath: written) }
        return Array(try Data(contentsOf: URL(fileURLWithPath: written)))
    }

    @Test("the private key of a device key in SoftHSM is in no file, capture or output of a run")
    func privateKeyNowhere() async throws {
        let key = try PrivateKey(generating: .p256)
        let scalar = key.rawRepresentation
        let token = try SoftHSMToken()
        defer { token.remove() }
        try token.importKeyPair("device", id: "01", privateKeyDER: key.derRepresentation, publicKeyDER: key.publicKey.derRepresentation)
        let run = try IsolatedRun(["SOFTHSM2_CONF": token.configurationPath, "MDOC_TOKEN_PIN": token.pin])
        defer { run.remove() }

        var outputs: [ProgramRunner.Result] = []
        outputs.append(try await TokenDeviceKeyTests.issueAndImport(
            run, publicKey: key.publicKey, keyIn: ["--key-in", token.uri(of: "device"), "--module", SoftHSMToken.module]))
        outputs.append(try await run.run("mdoc-holder", ["list"]))
        outputs.append(try await run.run("mdoc-holder", ["show", "mdl"]))
        outputs.append(try await run.run("mdoc", ["inspect", run.credentialStore + "/mdl.mdoc", "--show-private-key"]))
        for deviceAuth in ["mac", "signature"] {
            let session = try await run.session(
                holder: ["--credential", "mdl", "--yes", "--no-qr", "--device-auth", deviceAuth, "--log-level", "debug",
                         "--save-session", run.home + "/holder-\(deviceAuth)"],
                reader: TokenDeviceKeyTests.request + ["--log-level", "debug", "--save-session", run.home + "/reader-\(deviceAuth)"])
            #expect(session.holder.status == 0, "\(session.holder.standardError)")
            #expect(session.reader.status == 0, "\(session.reader.standardError)")
            outputs += [session.holder, session.reader]
        }
        #expect(outputs.allSatisfy { $0.status == 0 }, "\(outputs.map(\.standardError))")

        let needles = Self.encodings(of: scalar)
        let files = try FileManager.default.subpathsOfDirectory(atPath: run.home)
        var searched = 0
        for path in files {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: run.home + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue else {
                continue
            }
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: run.home + "/" + path)))
            #expect(!Self.holds(bytes, anyOf: needles), "\(path) holds the device key's private scalar")
            searched += 1
        }
        // The captures of both sides and the stored credential were searched.
        #expect(files.contains { $0.hasPrefix("holder-mac/") } && files.contains { $0.hasPrefix("reader-signature/") })
        #expect(files.contains { $0.hasSuffix("mdl.mdoc") })
        #expect(searched > 10, "\(files)")
        for output in outputs {
            #expect(!Self.holds(Array(output.standardOutput.utf8) + Array(output.standardError.utf8), anyOf: needles),
                    "a program printed the device key's private scalar")
        }
        // The search finds the scalar where it is: in the token's store SoftHSM keeps it
        // encrypted, but a plaintext credential holds it in the clear.
        #expect(Self.holds(Array(("x" + Data(scalar).base64EncodedString()).utf8), anyOf: needles))
        #expect(Self.holds(Array(("\"d\": \"" + scalar.map { String(format: "%02X", $0) }.joined()).utf8), anyOf: needles))
    }

    @Test("the private key of a device key in a TPM is not in the core of a holder that used it; a software key is")
    func privateKeyNotInTheHoldersMemory() async throws {
        try HelperCommand.requireInstalled("gcore", package: "gdb")
        let key = try PrivateKey(generating: .p256)
        let tpm = try SoftwareTPM()
        defer { tpm.stop() }
        let blob = try tpm.importKey(key.pemRepresentation, named: "device.tss2.pem")
        let run = try IsolatedRun()
        defer { run.remove() }
        let imported = try await TokenDeviceKeyTests.issueAndImport(
            run, publicKey: key.publicKey, keyIn: ["--key-in", "tpm2:" + tpm.tcti, "--key-file", blob])
        #expect(imported.status == 0)

        for deviceAuth in ["mac", "signature"] {
            let core = try await Self.holderCore(run, holder: ["--credential", "mdl", "--device-auth", deviceAuth])
            #expect(core.count > 1_000_000, "\(core.count) bytes")
            let scalar = key.rawRepresentation
            #expect(!Self.holds(core, anyOf: Self.encodings(of: scalar) + [scalar.reversed()]),
                    "the core of a holder using DeviceMac or DeviceSignature (\(deviceAuth)) holds the TPM key's private scalar")
        }

        // The search finds a device key that the holder does hold: the demo credential's.
        let demo = try CBOR.decode(Array(try Data(contentsOf: URL(fileURLWithPath: ProgramRunner.repositoryRoot + "/Certs/demo/mdl.mdoc"))))
            .map(at: .root)
        let demoDeviceKey = try #require(demo[text: "deviceKey"]).map(at: .root)
        let demoKey = try #require(demoDeviceKey[int: COSEKey.Label.d]).bytes(at: .root)
        let control = try await Self.holderCore(run, holder: ["--credential", "Certs/demo/mdl.mdoc"])
        #expect(Self.holds(control, anyOf: [demoKey, demoKey.reversed()]), "the search did not find the demo device key in its holder's core")
    }
}
