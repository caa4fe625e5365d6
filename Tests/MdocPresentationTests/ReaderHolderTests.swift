import MdocBLE
import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel
import MdocPresentation
import MdocSession
import MdocTestPeers
import MdocTestSupport
import Testing

/// `MdocReader` and `MdocHolder`: one configuration, a new session with new ephemeral keys for
/// every read and every engagement (ISO/IEC 18013-5 9.1.1.4), one verdict, verified data only.
@Suite struct ReaderHolderTests {
    private func holder(consent: any HolderConsentDelegate = HolderConsent.approvingAllAvailable) throws -> MdocHolder {
        MdocHolder(configuration: .init(
            credentials: [try DemoMaterial.mDL()], readerTrust: ReaderRootTrust(trustAnchors: []), consent: consent,
            timeouts: generousTimeouts))
    }

    private func reader(request: [DocRequestSpec] = ageOver18) throws -> MdocReader {
        MdocReader(configuration: .init(request: request, trustAnchors: [try DemoMaterial.iaca()], timeouts: generousTimeouts))
    }

    /// Presents `holder`'s next engagement over `radio` in a child task while `read` reads it,
    /// given the URI the holder showed.
    private func present<Result: Sendable>(
        _ holder: MdocHolder, over radio: any MdocRadio, _ read: (MdocURI) async throws -> Result
    ) async throws -> (holder: HolderSessionResult, read: Result) {
        let (uris, shown) = AsyncStream.makeStream(of: MdocURI.self)
        async let presented = holder.present(over: radio) { shown.yield($0) }
        var next = uris.makeAsyncIterator()
        let uri = try #require(await next.next())
        let read = try await read(uri)
        return (try await presented, read)
    }

    /// The EReaderKey of the SessionEstablishment the reader sent first.
    private func eReaderKey(_ verdict: ReaderVerdict) throws -> [UInt8] {
        let first = try #require(verdict.details.messages.first { $0.direction == .sent })
        let establishment = try SessionEstablishment(encoded: first.bytes)
        return Array(establishment.eReaderKey.bytes)
    }

    @Test("every read and every engagement is a new session with new ephemeral keys", arguments: Air.allCases)
    func newKeysEverySession(air: Air) async throws {
        let holder = try holder()
        let reader = try reader()
        var readerKeys: [[UInt8]] = []
        var engagements: [[UInt8]] = []
        for _ in 0..<2 {
            let radios = air.radios()
            let (presented, (uri, verdict)) = try await present(holder, over: radios.holder) { uri in
                (uri, try await reader.read(uri, over: radios.reader))
            }
            engagements.append(Array(uri.deviceEngagementBytes.bytes))
            #expect(presented.end.isNormalEnd)
            let documents = try #require(verdict.verifiedDocuments, "\(verdict)")
            #expect(documents.first(ofType: DocType.mDL)?.ageOver(18) == true)
            readerKeys.append(try eReaderKey(verdict))
        }
        #expect(readerKeys[0] != readerKeys[1])
        #expect(engagements[0] != engagements[1])
        let deviceKeys = try engagements.map { bytes in
            Array(try DeviceEngagement(encoded: bytes).security.eDeviceKeyBytes.bytes)
        }
        #expect(deviceKeys[0] != deviceKeys[1])
    }

    @Test("a holder that releases nothing gets a refusal, with the response's status")
    func refusal() async throws {
        let radio = InMemoryRadio()
        let reader = try reader()
        let (_, verdict) = try await present(try holder(consent: HolderConsent { _ in ElementSelection() }), over: radio) { uri in
            try await reader.read(uri, over: radio)
        }
        guard case .refused(.noDocuments, let details) = verdict else {
            Issue.record("expected a refusal, got \(verdict)")
            return
        }
        #expect(details.report?.outcome == .noDocuments)
        #expect(verdict.verifiedDocuments == nil)
    }

    @Test("no mdoc on the engagement's service is a link failure, once the connection bound runs out in virtual time")
    func linkFailure() async throws {
        let uri = try holder().engagement().uri
        let clock = ManualClock()
        var configuration = try reader().configuration
        configuration.timeouts = SessionTimeouts(connection: .seconds(30), idle: .seconds(60))
        configuration.clock = clock
        async let read = MdocReader(configuration: configuration).read(uri, over: InMemoryRadio())
        await clock.sleeping(1)
        clock.advance(by: .seconds(30))
        guard case .linkFailed(let error, _) = try await read else {
            Issue.record("expected a link failure, got \(try await read)")
            return
        }
        #expect(error.code == .timeout)
    }

    @Test("the verified documents hold only verified elements, typed")
    func verifiedData() async throws {
        let radio = InMemoryRadio()
        let reader = try reader(request: mDLRequest([
            "family_name", "given_name", "birth_date", "portrait", "driving_privileges", "age_over_18", "issue_date",
        ]))
        let (_, verdict) = try await present(try holder(), over: radio) { uri in try await reader.read(uri, over: radio) }
        let document = try #require(verdict.verifiedDocuments?.first)
        let report = try #require(verdict.details.report?.documents.first)
        #expect(document.elements.count == report.elements.filter(\.verified).count)
        #expect(document.familyName?.value == report.elements.first { $0.identifier == "family_name" }?.value.textValue)
        #expect(document.birthDate != nil)
        #expect(document.issueDate != nil)
        #expect(document.portrait?.isEmpty == false)
        #expect(document.drivingPrivileges?.isEmpty == false)
        #expect(document.ageOver(18) == true)
        #expect(document.ageOver(100) == nil)
    }

    @Test("progress comes as a sequence that ends with the session")
    func events() async throws {
        let radio = InMemoryRadio()
        let reader = try reader()
        let (_, seen) = try await present(try holder(), over: radio) { uri in
            let session = try reader.session(for: uri)
            let events = session.events
            let verdict = await session.run(over: radio)
            #expect(verdict.verifiedDocuments != nil)
            var seen: [ReaderEvent] = []
            for await event in events { seen.append(event) }
            return seen
        }
        #expect(seen.contains(.waitingForConsent))
        #expect(seen.contains { if case .received = $0 { return true } else { return false } })

        // A holder's engagement made first, its URI shown before waiting, run once.
        let engagement = try holder().engagement()
        let holderEvents = engagement.events
        let uri = engagement.uri
        async let read = reader.read(uri, over: radio)
        let presented = await engagement.run(over: radio)
        #expect(try await read.verifiedDocuments != nil)
        #expect(presented.end.isNormalEnd)
        var holderSaw: [String] = []
        for await event in holderEvents { holderSaw.append("\(event)") }
        #expect(holderSaw.contains { $0.hasPrefix("connected") })
        #expect(holderSaw.contains { $0.hasPrefix("decided") })
    }

    @Test("an in-memory radio's failure is its closing, told to whoever waits")
    func radioFailure() async {
        let radio = InMemoryRadio()
        async let failure = radio.failure()
        await radio.close()
        #expect(await failure?.code == .linkClosed)
    }
}
