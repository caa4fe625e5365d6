import MdocBLE
import MdocCBOR
import MdocCapture
import MdocCrypto
import MdocFiles
import MdocModel
import MdocPresentation
import MdocSession

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Runs ``ReaderConformanceCase``s against an mdoc reader under test: for each, our holder makes
/// a fresh engagement (ISO/IEC 18013-5 9.1.1: each session belongs to one), shows it, serves the
/// reader that comes as the case scripts it, and judges what the reader did by the case's
/// ``ReaderExpectation``. Each session can be captured (`MdocCapture`) for offline study.
public struct ReaderConformanceRunner: Sendable {
    /// The documents the holder presents: it releases every requested element they hold.
    public var credentials: [Credential]
    /// The BLE modes each engagement offers (8.3.3.1.1), each with a new service UUID, as
    /// `BleOptions.offering(peripheralServerMode:centralClientMode:)` makes them for a holder.
    public var modes: Set<MdocBLEMode>
    /// The bounds of each session's waits; the connection's is how long the reader has to come.
    public var timeouts: SessionTimeouts
    /// The directory each case's session is captured into (a directory per case, named after
    /// it); `nil` for none.
    public var capturesDirectory: String?
    /// The program, with its version, that captures name.
    public var program: String
    /// The transport's name, as captures write it.
    public var transport: String
    /// The credentials a case departing by ``ScriptedHolderSession/Departure/expiredDocumentSigner``
    /// presents: documents whose document signer certificate has expired, issued under a root
    /// the reader trusts (`mdoc-issuer issue --ds-not-after`). Empty, such a case is
    /// inconclusive.
    public var expiredSignerCredentials: [Credential] = []

    /// A runner presenting `credentials` in engagements offering `modes`; see the properties
    /// for the others.
    public init(
        credentials: [Credential], modes: Set<MdocBLEMode>, timeouts: SessionTimeouts = .holder, capturesDirectory: String? = nil,
        program: String, transport: String
    ) {
        self.credentials = credentials
        self.modes = modes
        self.timeouts = timeouts
        self.capturesDirectory = capturesDirectory
        self.program = program
        self.transport = transport
    }

    /// Runs `cases` in order over `radio`. Each case's engagement is given to `engagement` to
    /// show before the holder waits for the reader; a case whose expectation needs a person asks
    /// `confirm` once its session ended (`nil`: no answer came); `finished` is told each result as
    /// it is known.
    public func run(
        _ cases: [ReaderConformanceCase], over radio: any MdocRadio, engagement: (MdocURI) async -> Void,
        confirm: (ReaderConformanceCase) async -> Bool?, finished: (ConformanceResult) async -> Void = { _ in }
    ) async -> [ConformanceResult] {
        var results: [ConformanceResult] = []
        for (index, conformanceCase) in cases.enumerated() {
            let result: ConformanceResult
            if let outcome = conformanceCase.session.link.unsizable(over: radio, by: "holder") {
                result = ConformanceResult(conformanceCase: conformanceCase, outcome: outcome, duration: .zero, capturePath: nil)
            } else {
                result = await run(conformanceCase, number: index + 1, over: radio, engagement: engagement, confirm: confirm)
            }
            results.append(result)
            await finished(result)
        }
        return results
    }

    /// Runs one case, numbered `number` in its run.
    func run(
        _ conformanceCase: ReaderConformanceCase, number: Int, over radio: any MdocRadio, engagement: (MdocURI) async -> Void,
        confirm: (ReaderConformanceCase) async -> Bool?
    ) async -> ConformanceResult {
        let clock = ContinuousClock()
        let start = clock.now
        let departure = conformanceCase.session.departure
        if departure == .expiredDocumentSigner && expiredSignerCredentials.isEmpty {
            return ConformanceResult(
                conformanceCase: conformanceCase,
                outcome: .inconclusive("the case needs a credential whose document signer certificate has expired, and none was given"),
                duration: clock.now - start, capturePath: nil)
        }
        let eDeviceKey: PrivateKey
        let driver: HolderDriver
        do {
            eDeviceKey = try PrivateKey(generating: conformanceCase.session.eDeviceKeyCurve)
            var made = try HolderDriver(
                credentials: try Self.credentials(departure == .expiredDocumentSigner ? expiredSignerCredentials : credentials, for: departure),
                bleOptions: BleOptions.offering(
                    peripheralServerMode: modes.contains(.peripheralServer), centralClientMode: modes.contains(.centralClient)),
                eDeviceKey: eDeviceKey, engagementVersion: conformanceCase.session.engagementVersion,
                additionalEngagementEntries: conformanceCase.session.additionalEngagementEntries,
                trust: ReaderRootTrust(trustAnchors: []), consent: HolderConsent.approvingAllAvailable, timeouts: timeouts)
            made.script = Self.script(for: conformanceCase.session.departure, eDeviceKey: eDeviceKey)
            made.linkSizing = conformanceCase.session.link.sizing
            if let ending = conformanceCase.session.ending {
                made.endsAfterResponse = true
                made.ending = ending.holderEnding
            }
            driver = made
        } catch {
            return ConformanceResult(
                conformanceCase: conformanceCase, outcome: .inconclusive("the session could not be started: \(error)"),
                duration: clock.now - start, capturePath: nil)
        }
        await engagement(driver.mdocURI)
        let started = Date()
        let result = await driver.run(over: radio)
        let answer = conformanceCase.needsPerson && ReaderObservation(result).responseSent ? await confirm(conformanceCase) : nil
        let outcome = conformanceCase.expectation.judge(result, answer: answer)
        let duration = clock.now - start
        guard let capturesDirectory else {
            return ConformanceResult(conformanceCase: conformanceCase, outcome: outcome, duration: duration, capturePath: nil)
        }
        let path = "\(capturesDirectory)/\(number < 10 ? "0" : "")\(number)-\(conformanceCase.name)"
        let capture = SessionCapture(
            role: .mdoc, program: program, transport: transport, mode: result.mode, mtu: result.mtu, started: started, ended: Date(),
            deviceEngagement: Array(driver.deviceEngagement.bytes), engagementURI: "\(driver.mdocURI)",
            sessionTranscriptBytes: result.sessionTranscript?.taggedBytes, ephemeralKey: eDeviceKey, messages: result.messages,
            outcome: "\(result.end)", exitStatus: ConformanceRunner.exitStatus(of: outcome).rawValue, verificationTime: nil, report: nil)
        do {
            try capture.save(in: path)
        } catch {
            return ConformanceResult(
                conformanceCase: conformanceCase, outcome: outcome == .passed ? .inconclusive("the capture could not be written: \(error)") : outcome,
                duration: duration, capturePath: nil)
        }
        return ConformanceResult(conformanceCase: conformanceCase, outcome: outcome, duration: duration, capturePath: path)
    }

    /// The script of `departure`, in a session whose EDeviceKey is `eDeviceKey`.
    static func script(for departure: ScriptedHolderSession.Departure, eDeviceKey: PrivateKey) -> HolderScript {
        switch departure {
        case .none, .alteredDigests, .expiredDocumentSigner:
            return .asBuilt
        case .alteredCiphertext:
            return HolderScript(response: { (response) throws(SessionError) in
                guard var message = try? SessionData(encoded: response.message), var data = message.data, let last = data.indices.last else {
                    throw SessionError(.messageConstructionFailed, "the SessionData built carries no ciphertext to alter")
                }
                data[last] ^= 0x01
                message.data = data
                return message.encoded()
            })
        case .skippedMessageCounter:
            return .resealing(eDeviceKey: eDeviceKey) { (deviceResponse, keys, counter) throws(SessionError) in
                var encryption = SessionEncryption(role: .mdoc, keys: keys, sendCounter: counter &+ 1, receiveCounter: 1)
                return try encryption.encrypt(deviceResponse)
            }
        case .encryptedWithSKReader:
            return .resealing(eDeviceKey: eDeviceKey) { (deviceResponse, keys, counter) throws(SessionError) in
                do {
                    return try AESGCM.seal(
                        deviceResponse, key: keys.skReader, nonce: SessionEncryption.nonce(identifier: SessionRole.mdoc.identifier, counter: counter))
                } catch {
                    throw SessionError(.encryptionFailed, "AES-256-GCM encryption failed: \(error)")
                }
            }
        case .responseStatus(let status):
            return .replacingResponses(with: DeviceResponse(status: status).encoded(), eDeviceKey: eDeviceKey)
        case .responseVersion(let version):
            return rewritingResponses(eDeviceKey: eDeviceKey) { $0.changingEntry("version") { _ in .textString(version) } }
        case .responseWithoutStatus:
            return rewritingResponses(eDeviceKey: eDeviceKey) { $0.changingEntry("status") { _ in nil } }
        case .issuerSignedItemsUntagged:
            return rewritingResponses(eDeviceKey: eDeviceKey) { response in
                response.changingEntry("documents") { documents in
                    documents.changingEach { document in
                        document.changingEntry("issuerSigned") { issuerSigned in
                            issuerSigned.changingEntry("nameSpaces") { nameSpaces in
                                nameSpaces.changingEach { items in
                                    items.changingEach { item in
                                        guard case .tagged(CBOR.Tag.encodedCBOR, let bytes) = item else { return item }
                                        return bytes
                                    }
                                }
                            }
                        }
                    }
                }
            }
        case .plaintextNotCBOR:
            return .resealing(eDeviceKey: eDeviceKey) { (deviceResponse, keys, counter) throws(SessionError) in
                var encryption = SessionEncryption(role: .mdoc, keys: keys, sendCounter: counter, receiveCounter: 1)
                return try encryption.encrypt(Array(deviceResponse.dropLast()))
            }
        case .responseDataTagged:
            return HolderScript(response: { (response) throws(SessionError) in
                guard let message = try? CBOR.decode(response.message), case .map(let map) = message, map[text: "data"] != nil else {
                    throw SessionError(.messageConstructionFailed, "the SessionData built carries no ciphertext to tag")
                }
                return message.changingEntry("data") { .tagged(CBOR.Tag.encodedCBOR, $0) }.encoded()
            })
        }
    }

    /// A script sending, in place of each response a session with `eDeviceKey` builds, its
    /// DeviceResponse with `change` made to it, encrypted under the same keys and counter
    /// (9.1.1.5). The DeviceResponse is the holder's own, built in this session: re-encoding it
    /// keeps nothing a peer sent.
    static func rewritingResponses(eDeviceKey: PrivateKey, _ change: @escaping @Sendable (CBOR) -> CBOR) -> HolderScript {
        .resealing(eDeviceKey: eDeviceKey) { (deviceResponse, keys, counter) throws(SessionError) in
            let response: CBOR
            do {
                response = try CBOR.decode(deviceResponse)
            } catch {
                throw SessionError(.messageConstructionFailed, "the DeviceResponse built does not decode again: \(error)")
            }
            var encryption = SessionEncryption(role: .mdoc, keys: keys, sendCounter: counter, receiveCounter: 1)
            return try encryption.encrypt(change(response).encoded())
        }
    }

    /// The credentials the holder presents for `departure`: for ``ScriptedHolderSession/Departure/alteredDigests``,
    /// each with the salt of every IssuerSignedItem altered, so that no item matches its digest
    /// in the MSO while IssuerAuth is unchanged.
    static func credentials(_ credentials: [Credential], for departure: ScriptedHolderSession.Departure) throws(CBORError) -> [Credential] {
        guard departure == .alteredDigests else { return credentials }
        return try credentials.map { (credential) throws(CBORError) in
            var issuerSigned = credential.issuerSigned
            issuerSigned.nameSpaces = issuerSigned.nameSpaces.map { nameSpaces in
                OrderedMap(nameSpaces.elements.map { nameSpace, items in
                    (key: nameSpace, value: items.map { item in
                        var altered = item.value
                        var salt = Array(altered.random)
                        if let first = salt.indices.first { salt[first] ^= 0x01 }
                        altered.random = CBORBytes(salt)
                        return EmbeddedCBOR(altered)
                    })
                })
            }
            return try Credential(docType: credential.docType, issuerSigned: issuerSigned, deviceKey: credential.deviceKey)
        }
    }
}
