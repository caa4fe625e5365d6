import MdocBLE
import MdocCBOR
import MdocCOSE
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

/// Runs ``ConformanceCase``s against an mdoc under test, each as a session of its own from a
/// fresh engagement (ISO/IEC 18013-5 9.1.1: the session keys, and so each session, belong to one
/// engagement), and judges each by its ``HolderExpectation``. Each session can be captured
/// (`MdocCapture`) for offline study.
public struct ConformanceRunner: Sendable {
    /// The IACA certificates responses are verified against.
    public var trustAnchors: [Certificate]
    /// The extended key usages document signers may carry, per doc type.
    public var documentSignerPolicy: DocumentSignerPolicy
    /// The bounds of each session's waits; the response's bound is the time a person has to
    /// decide.
    public var timeouts: SessionTimeouts
    /// The BLE mode to use when the engagement offers it; the engagement's first otherwise.
    public var preferredMode: MdocBLEMode?
    /// The directory each case's session is captured into (a directory per case, named after
    /// it); `nil` for none.
    public var capturesDirectory: String?
    /// The program, with its version, that captures name.
    public var program: String
    /// The transport's name, as captures write it.
    public var transport: String
    /// The reader's signing key and certificate chain (reader certificate first) that sign each
    /// DocRequest the runner builds (ISO/IEC 18013-5 9.1.4); `nil` for anonymous requests, with
    /// which the cases about reader authentication are inconclusive.
    public var readerAuthentication: (key: PrivateKey, chain: [Certificate])?
    /// The key and certificate chain of a reader whose certificate has expired, under a root the
    /// mdoc trusts (`mdoc-issuer pki --reader-not-after`), for the case departing by
    /// ``ScriptedSession/Departure/readerAuthByExpiredReader``; `nil`, that case is
    /// inconclusive.
    public var expiredReaderAuthentication: (key: PrivateKey, chain: [Certificate])?
    /// What the bounds of each session (``timeouts``) are measured on.
    package var clock: any Clock<Duration> = ContinuousClock()

    /// A runner verifying against `trustAnchors`; see the properties for the others.
    public init(
        trustAnchors: [Certificate], documentSignerPolicy: DocumentSignerPolicy = .standard, timeouts: SessionTimeouts = .reader,
        preferredMode: MdocBLEMode? = nil, capturesDirectory: String? = nil, program: String, transport: String,
        readerAuthentication: (key: PrivateKey, chain: [Certificate])? = nil,
        expiredReaderAuthentication: (key: PrivateKey, chain: [Certificate])? = nil
    ) {
        self.trustAnchors = trustAnchors
        self.readerAuthentication = readerAuthentication
        self.expiredReaderAuthentication = expiredReaderAuthentication
        self.documentSignerPolicy = documentSignerPolicy
        self.timeouts = timeouts
        self.preferredMode = preferredMode
        self.capturesDirectory = capturesDirectory
        self.program = program
        self.transport = transport
    }

    /// Runs `cases` in order over `radio`. Before each case `engagement` gives the mdoc's
    /// current engagement (`nil` when none comes: that case and the rest are inconclusive);
    /// `finished` is told each result as it is known.
    public func run(
        _ cases: [ConformanceCase], over radio: any MdocRadio, engagement: () async -> MdocURI?,
        finished: (ConformanceResult) async -> Void = { _ in }
    ) async -> [ConformanceResult] {
        var results: [ConformanceResult] = []
        var engagementsEnded = false
        for (index, conformanceCase) in cases.enumerated() {
            let result: ConformanceResult
            if let outcome = conformanceCase.session.link.unsizable(over: radio, by: "reader") ?? unsigned(conformanceCase.session)
                ?? Self.undroppable(conformanceCase.session, over: radio) {
                result = ConformanceResult(conformanceCase: conformanceCase, outcome: outcome, duration: .zero, capturePath: nil)
            } else if !engagementsEnded, let uri = await engagement() {
                result = await run(conformanceCase, number: index + 1, over: radio, engagement: uri)
            } else {
                engagementsEnded = true
                result = ConformanceResult(
                    conformanceCase: conformanceCase, outcome: .inconclusive("no engagement of the mdoc came for this case"),
                    duration: .zero, capturePath: nil)
            }
            results.append(result)
            await finished(result)
        }
        return results
    }

    /// The outcome of a case that drops a link of the reader's own
    /// (``ScriptedSession/Departure/linkLostBeforeStart``) over `radio` when the runner cannot:
    /// only over a transport whose links it makes itself (`sim`, `hci:`), not through
    /// bluetoothd. Said before an engagement is taken, so that the mdoc meets it in the next
    /// case; `nil` when the case can run.
    static func undroppable(_ session: ScriptedSession, over radio: any MdocRadio) -> ConformanceOutcome? {
        guard session.departure == .linkLostBeforeStart, !(radio is any BLEAdapter) else { return nil }
        return undroppableLink
    }

    /// The outcome of a case that drops a link of the reader's own over a transport that cannot.
    static let undroppableLink = ConformanceOutcome.inconclusive(
        "this transport cannot drop a link of the reader's own before the session's start: run the case over hci: or sim")

    /// The outcome of a case about reader authentication when the runner has no key to sign
    /// with; `nil` when the case can run. Said before an engagement is taken, as for a link the
    /// runner cannot size.
    func unsigned(_ session: ScriptedSession) -> ConformanceOutcome? {
        guard session.departure.needsReaderAuthentication else { return nil }
        if readerAuthentication == nil {
            return .inconclusive("the case needs the key and certificate of a reader the mdoc trusts (--reader-cert, --reader-key)")
        }
        if session.departure == .readerAuthByExpiredReader, expiredReaderAuthentication == nil {
            return .inconclusive(
                "the case needs the key and the expired certificate of a reader under a root the mdoc trusts (--expired-reader-cert, --expired-reader-key)")
        }
        return nil
    }

    /// Runs one case, numbered `number` in its run, with the mdoc that showed `uri`.
    func run(_ conformanceCase: ConformanceCase, number: Int, over radio: any MdocRadio, engagement uri: MdocURI) async -> ConformanceResult {
        let clock = ContinuousClock()
        let start = clock.now
        let started = Date()
        let prepared: Prepared
        do throws(SessionError) {
            prepared = try prepare(conformanceCase.session, engagement: uri.deviceEngagementBytes)
        } catch {
            return ConformanceResult(
                conformanceCase: conformanceCase, outcome: .inconclusive("the session could not be started: \(error)"),
                duration: clock.now - start, capturePath: nil)
        }
        if conformanceCase.session.departure == .linkLostBeforeStart,
           let outcome = await Self.dropLinkBeforeStart(over: radio, engagement: uri, within: timeouts.connection) {
            return ConformanceResult(conformanceCase: conformanceCase, outcome: outcome, duration: clock.now - start, capturePath: nil)
        }
        var driver = ReaderDriver(session: prepared.session, timeouts: timeouts, termination: .status, clock: self.clock)
        driver.script = prepared.script
        driver.linkSizing = conformanceCase.session.link.sizing
        if conformanceCase.session.departure == .identAltered {
            var ident = prepared.session.bleIdent
            if let last = ident.indices.last { ident[last] ^= 0x01 }
            driver.servedIdent = ident
        }
        let result = await driver.run(over: radio, mode: conformanceCase.session.departure.requiredMode ?? preferredMode)
        var outcome = conformanceCase.expectation.judge(result)
        if conformanceCase.session.departure == .linkLostBeforeStart, !result.messages.contains(where: { $0.direction == .sent }) {
            // The mdoc took the first link: not taking the second is the failure the case is about.
            outcome = .failed("expected \(conformanceCase.expectation), but after the reader's first link dropped before the session's start "
                + "the mdoc took no second one: \(result.end)")
        }
        let duration = clock.now - start
        var capturePath: String?
        if let capturesDirectory {
            let path = "\(capturesDirectory)/\(number < 10 ? "0" : "")\(number)-\(conformanceCase.name)"
            let capture = SessionCapture(
                role: .reader, program: program, transport: transport, mode: result.mode, mtu: result.mtu, started: started,
                ended: Date(), deviceEngagement: Array(uri.deviceEngagementBytes.bytes), engagementURI: "\(uri)",
                sessionTranscriptBytes: prepared.sentTranscript, ephemeralKey: prepared.sentKey,
                messages: result.messages, outcome: "\(result.end)", exitStatus: Self.exitStatus(of: outcome).rawValue,
                verificationTime: result.report?.time, report: nil)
            do {
                try capture.save(in: path)
                capturePath = path
            } catch {
                return ConformanceResult(
                    conformanceCase: conformanceCase, outcome: outcome == .passed ? .inconclusive("the capture could not be written: \(error)") : outcome,
                    duration: duration, capturePath: nil)
            }
        }
        return ConformanceResult(conformanceCase: conformanceCase, outcome: outcome, duration: duration, capturePath: capturePath)
    }

    /// For ``ScriptedSession/Departure/linkLostBeforeStart``: connects to the mdoc's service in
    /// peripheral server mode over `radio` within `bound`, exchanges the ATT_MTU, discovers the
    /// service and enables the notifications of State and Server2Client as a session would,
    /// then drops the link without writing State 0x01 (8.3.3.1.1.3, 8.3.3.1.1.4). `nil` once
    /// done, else the case's outcome: inconclusive when the mdoc offers no peripheral server
    /// mode or the first link could not be made, since the mdoc was then never put to the test.
    static func dropLinkBeforeStart(over radio: any MdocRadio, engagement uri: MdocURI, within bound: Duration) async -> ConformanceOutcome? {
        guard let adapter = radio as? any BLEAdapter else { return undroppableLink }
        guard let serviceUUID = uri.deviceEngagementBytes.value.bleOptions?.peripheralServerModeUUID else {
            return .inconclusive("the mdoc does not offer mdoc peripheral server mode, in which the reader's link is the one to drop")
        }
        do throws(BLEError) {
            let client = GATTClient(bearer: try await adapter.connect(serviceUUID: serviceUUID, timeout: bound))
            defer { client.close() }
            _ = try await client.exchangeMTU(MdocGATTClientTransport.requestedMTU)
            let characteristics = try await client.discoverCharacteristics(of: try await client.discoverPrimaryService(BluetoothUUID(serviceUUID)))
            for uuid in [MdocGATTProfile.state(mode: .peripheralServer), MdocGATTProfile.server2Client(mode: .peripheralServer)] {
                if let characteristic = characteristics.first(where: { $0.uuid == uuid }) {
                    try await client.setNotifications(true, for: characteristic)
                }
            }
        } catch {
            return .inconclusive("the reader's first link to the mdoc, to drop before the session's start, could not be made: \(error)")
        }
        return nil
    }

    /// A case's session, the script it departs by, and the EReaderKey the mdoc was sent with the
    /// SessionTranscript it makes, which a capture keeps.
    struct Prepared {
        var session: ReaderSession
        var script: ReaderScript
        var sentKey: PrivateKey
        var sentTranscript: [UInt8]
    }

    /// The session `scripted` describes with the mdoc of `engagement`.
    func prepare(_ scripted: ScriptedSession, engagement: EmbeddedCBOR<DeviceEngagement>) throws(SessionError) -> Prepared {
        let curve: Curve
        let eReaderKey: PrivateKey
        do {
            curve = try engagement.value.security.eDeviceKeyBytes.value.publicKey().curve
            eReaderKey = try PrivateKey(generating: curve)
        } catch {
            throw SessionError(.invalidEngagement, "the engagement's EDeviceKey is not a usable public key: \(error)")
        }
        let now: @Sendable () -> Date = { Date() }
        let session: ReaderSession
        switch scripted.request {
        case .built(let specs):
            if let bytes = try departedRequest(specs, departure: scripted.departure, engagement: engagement, eReaderKey: eReaderKey) {
                session = try ReaderSession(
                    engagement: engagement, deviceRequest: bytes, trustAnchors: trustAnchors, documentSignerPolicy: documentSignerPolicy,
                    eReaderKey: eReaderKey, now: now)
            } else {
                session = try ReaderSession(
                    engagement: engagement, request: specs, readerAuthentication: readerAuthentication, trustAnchors: trustAnchors,
                    documentSignerPolicy: documentSignerPolicy, eReaderKey: eReaderKey, now: now)
            }
        case .given(let bytes):
            session = try ReaderSession(
                engagement: engagement, deviceRequest: bytes, trustAnchors: trustAnchors, documentSignerPolicy: documentSignerPolicy,
                eReaderKey: eReaderKey, now: now)
        }
        guard scripted.departure == .eReaderKeyOnOtherCurve else {
            return Prepared(
                session: session, script: Self.script(for: scripted.departure, eReaderKey: session.eReaderKeyBytes), sentKey: eReaderKey,
                sentTranscript: session.sessionTranscript.taggedBytes)
        }
        let other: PrivateKey
        do {
            other = try PrivateKey(generating: curve == .p384 ? .p256 : .p384)
        } catch {
            throw SessionError(.keyDerivationFailed, "cannot generate a key on another curve than \(curve): \(error)")
        }
        let otherBytes = EmbeddedCBOR(COSEKey(publicKey: other.publicKey))
        let transcript = Self.transcript(engagement: engagement, eReaderKey: other.publicKey)
        return Prepared(
            session: session, script: Self.script(for: scripted.departure, eReaderKey: otherBytes), sentKey: other,
            sentTranscript: transcript.taggedBytes)
    }

    /// The DeviceRequest of `specs` that `departure` sends in place of the one the session builds,
    /// each DocRequest signed as the runner signs (9.1.4) over the transcript of the session with
    /// `engagement` and `eReaderKey`, or over another's; `nil` when the departure leaves the
    /// request as built. Throws `.messageConstructionFailed` for a departure about reader
    /// authentication when the runner has no key to sign with.
    package func departedRequest(
        _ specs: [DocRequestSpec], departure: ScriptedSession.Departure, engagement: EmbeddedCBOR<DeviceEngagement>, eReaderKey: PrivateKey
    ) throws(SessionError) -> [UInt8]? {
        if departure.needsReaderAuthentication, readerAuthentication == nil {
            throw Self.noReaderKey
        }
        let builder = try DeviceRequestBuilder(readerAuthentication: readerAuthentication)
        let transcript = Self.transcript(engagement: engagement, eReaderKey: eReaderKey.publicKey)
        switch departure {
        case .none, .alteredCiphertext, .replayedCiphertext, .eReaderKeyOnOtherCurve, .establishmentWithout, .establishmentRetagged,
             .identAltered, .terminationByStatusOnly, .terminationByStateOnly, .linkLostBeforeStart:
            return nil
        case .requestVersion(let version, let additionalEntries):
            return try Self.rewritingRequest(builder.deviceRequest(specs, sessionTranscript: transcript)) { request in
                request.version = version
                request.additionalEntries.entries += additionalEntries.entries
            }
        case .readerAuthOverOtherTranscript:
            let other: PrivateKey
            do {
                other = try PrivateKey(generating: eReaderKey.curve)
            } catch {
                throw SessionError(.keyDerivationFailed, "cannot generate the EReaderKey of another session: \(error)")
            }
            return try builder.deviceRequest(specs, sessionTranscript: Self.transcript(engagement: engagement, eReaderKey: other.publicKey))
        case .readerAuthByExpiredReader:
            guard let expired = expiredReaderAuthentication else {
                throw SessionError(.messageConstructionFailed, "the case signs as a reader whose certificate has expired but the runner has none")
            }
            return try DeviceRequestBuilder(readerAuthentication: expired).deviceRequest(specs, sessionTranscript: transcript)
        case .readerAuthByUntrustedReader:
            guard let trusted = readerAuthentication else { throw Self.noReaderKey }
            return try Self.untrustedReader(curve: trusted.key.curve, at: Date()).deviceRequest(specs, sessionTranscript: transcript)
        case .requestInfo(let entries):
            try DeviceRequestBuilder.check(specs)
            return try builder.deviceRequest(
                itemsRequests: specs.map { spec in
                    var itemsRequest = spec.itemsRequest
                    itemsRequest.requestInfo = entries
                    return itemsRequest
                }, sessionTranscript: transcript)
        case .readerAuthSignatureAltered:
            return try Self.rewritingRequest(builder.deviceRequest(specs, sessionTranscript: transcript)) { request in
                for index in request.docRequests.indices {
                    guard var readerAuth = request.docRequests[index].readerAuth, let last = readerAuth.signature.indices.last else { continue }
                    readerAuth.signature[last] ^= 0x01
                    request.docRequests[index].readerAuth = readerAuth
                }
            }
        }
    }

    /// Why a departure about reader authentication cannot be made: the runner has no key.
    private static var noReaderKey: SessionError {
        SessionError(.messageConstructionFailed, "the case departs in its reader authentication but the runner has no reader key")
    }

    /// A builder signing as a reader no mdoc trusts (9.1.4): a reader authentication certificate
    /// on `curve` (the trusted reader's, so that trust is all that differs) under a reader root
    /// made with it (18013-5 Annex B), both valid from a day before `time` to a day after it,
    /// marked as test material and both in x5chain, so that only an mdoc that takes a chain's
    /// own root as trusted authenticates the reader.
    static func untrustedReader(curve: Curve, at time: Date) throws(SessionError) -> DeviceRequestBuilder {
        func subject(_ name: String) -> CertificateBuilder.DistinguishedName {
            var subject = CertificateBuilder.DistinguishedName(commonName: "conformance \(name)", country: "ZZ")
            subject.organizationalUnits = ["TEST: a reader no mdoc trusts"]
            return subject
        }
        let (from, until) = (time.addingTimeInterval(-86_400), time.addingTimeInterval(86_400))
        let reader: (key: PrivateKey, chain: [Certificate])
        do {
            let rootKey = try PrivateKey(generating: curve)
            let root = try CertificateBuilder(profile: .readerRoot, subject: subject("reader root"), notValidBefore: from, notValidAfter: until)
                .selfSigned(key: rootKey)
            let key = try PrivateKey(generating: curve)
            let certificate = try CertificateBuilder(profile: .readerAuthentication, subject: subject("reader"), notValidBefore: from, notValidAfter: until)
                .issued(for: key.publicKey, by: root, signingKey: rootKey)
            reader = (key, [certificate, root])
        } catch {
            throw SessionError(.messageConstructionFailed, "cannot make the certificates of a reader no mdoc trusts: \(error)")
        }
        return try DeviceRequestBuilder(readerAuthentication: reader)
    }

    /// The SessionTranscript of a session with the mdoc of `engagement`, engaged by QR code, in
    /// which the reader sends `eReaderKey` (9.1.5.1).
    static func transcript(engagement: EmbeddedCBOR<DeviceEngagement>, eReaderKey: PublicKey) -> SessionTranscriptBinding {
        SessionTranscriptBinding(SessionTranscript(
            deviceEngagementBytes: engagement, eReaderKeyBytes: EmbeddedCBOR(COSEKey(publicKey: eReaderKey)), handover: .qr))
    }

    /// `bytes`, a DeviceRequest the runner built, with `change` made to it.
    private static func rewritingRequest(_ bytes: [UInt8], _ change: (inout DeviceRequest) -> Void) throws(SessionError) -> [UInt8] {
        var request: DeviceRequest
        do {
            request = try DeviceRequest(encoded: bytes)
        } catch {
            throw SessionError(.messageConstructionFailed, "the DeviceRequest built cannot be read back: \(error)")
        }
        change(&request)
        return request.encoded()
    }

    /// The script of `departure`, sending `eReaderKey` when it replaces the session's.
    static func script(for departure: ScriptedSession.Departure, eReaderKey: EmbeddedCBOR<COSEKey>) -> ReaderScript {
        switch departure {
        case .none, .requestVersion, .readerAuthOverOtherTranscript, .readerAuthSignatureAltered, .readerAuthByUntrustedReader,
             .readerAuthByExpiredReader, .requestInfo, .identAltered, .linkLostBeforeStart:
            return .asBuilt
        case .terminationByStatusOnly, .terminationByStateOnly:
            var script = ReaderScript.asBuilt
            script.terminationLeavingChannel = departure == .terminationByStatusOnly ? .statusOnly : .stateOnly
            return script
        case .alteredCiphertext:
            return ReaderScript(establishment: { bytes in
                rewritingEstablishment(bytes) { establishment in
                    guard let last = establishment.data.indices.last else { return }
                    establishment.data[last] ^= 0x01
                }
            })
        case .replayedCiphertext:
            return ReaderScript(followUp: { establishment in
                guard let sent = try? SessionEstablishment(encoded: establishment) else { return nil }
                return SessionData(data: sent.data).encoded()
            })
        case .eReaderKeyOnOtherCurve:
            return ReaderScript(establishment: { bytes in
                rewritingEstablishment(bytes) { $0.eReaderKey = eReaderKey }
            })
        case .establishmentWithout(let entry):
            return ReaderScript(establishment: { bytes in
                guard let establishment = try? CBOR.decode(bytes) else { return bytes }
                return establishment.changingEntry(entry.rawValue) { _ in nil }.encoded()
            })
        case .establishmentRetagged(let entry):
            return ReaderScript(establishment: { bytes in
                guard let establishment = try? CBOR.decode(bytes) else { return bytes }
                return establishment.changingEntry(entry.rawValue) { value in
                    guard case .tagged(CBOR.Tag.encodedCBOR, let content) = value else { return .tagged(CBOR.Tag.encodedCBOR, value) }
                    return content
                }.encoded()
            })
        }
    }

    /// The exit status `mdoc-reader test-holder` gives an outcome, which a case's capture keeps.
    static func exitStatus(of outcome: ConformanceOutcome) -> ExitStatus {
        switch outcome {
        case .passed: .success
        case .failed: .conformanceFailed
        case .inconclusive: .sessionFailed
        }
    }

    /// `bytes`, a SessionEstablishment, with `change` made to it; unchanged when they do not
    /// decode, which the session built itself cannot be.
    private static func rewritingEstablishment(_ bytes: [UInt8], _ change: (inout SessionEstablishment) -> Void) -> [UInt8] {
        guard var establishment = try? SessionEstablishment(encoded: bytes) else { return bytes }
        change(&establishment)
        return establishment.encoded()
    }
}
