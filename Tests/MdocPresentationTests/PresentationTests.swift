import MdocBLE
import MdocCBOR
import MdocCrypto
import MdocIssuance
import MdocModel
import MdocPresentation
import MdocSession
import MdocTestPeers
import MdocTestSupport
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Whole presentations in this process (ISO/IEC 18013-5 9.1.1 over 8.3.3.1.1): a holder driver
/// and a reader driver meeting over the in-memory radio and over `sim`'s real GATT server and
/// client, in both BLE modes, with what the delegates decide.
@Suite("Presentations run by the drivers, in one process (ISO/IEC 18013-5 9.1.1, 8.3.3.1.1)", .timeLimit(.minutes(2)))
struct PresentationTests {
    static let cases: [(Air, MdocBLEMode)] = Air.allCases.flatMap { air in MdocBLEMode.allCases.map { (air, $0) } }

    @Test(arguments: cases)
    func aWholePresentationVerifies(over air: Air, in mode: MdocBLEMode) async throws {
        let holderEvents = EventLog<HolderEvent>()
        let readerEvents = EventLog<ReaderEvent>()
        let holder = try demoHolder(events: holderEvents)
        let reader = try demoReader(of: holder, request: mDLRequest(["family_name", "age_over_18"]), events: readerEvents)
        let (presented, read) = await present(holder, to: reader, over: air.radios(), mode: mode)

        #expect(read.end == .session(.terminatedByReader), "\(read.end)")
        #expect(presented.end == .session(.terminatedByReader), "\(presented.end)")
        #expect(read.mode == mode)
        #expect(presented.mode == mode)
        #expect(read.report?.outcome == .verified, "\(read.report?.failureSummary ?? [])")
        #expect(verifiedValues(read) == ["family_name": "Doe", "age_over_18": true])
        #expect(presented.disclosures.count == 1)
        #expect(presented.disclosures.first?.released.count == 2)
        let steps = readerEvents.all.map { "\($0)" }
        #expect(steps.contains("waitingForConsent"), "\(steps)")
        #expect(holderEvents.all.contains { if case .connected(mode) = $0 { return true } else { return false } })
    }

    @Test("the request shown to the holder and the response hold exactly what was asked, approved and held")
    func subsetIsExactlyWhatIsReturned() async throws {
        let holder = try demoHolder(consent: HolderConsent { request in
            var approved = ElementSelection()
            approved.insert(docType: DocType.mDL, nameSpace: NameSpace.mDL, identifier: "age_over_18")
            #expect(request.documents.map(\.docType) == [DocType.mDL])
            #expect(request.documents.first?.elements.map(\.identifier) == ["family_name", "age_over_18"])
            return approved
        })
        let reader = try demoReader(of: holder, request: mDLRequest(["family_name", "age_over_18"]))
        let (presented, read) = await present(holder, to: reader, over: Air.memory.radios())

        #expect(read.report?.outcome == .verified)
        #expect(verifiedValues(read) == ["age_over_18": true])
        #expect(presented.disclosures.first?.released.count == 1)
    }

    @Test("a holder who refuses everything sends no document, and the reader is told nothing")
    func refusal() async throws {
        let holder = try demoHolder(consent: HolderConsent.refusingAll)
        let reader = try demoReader(of: holder, request: [RequestPreset.full.docRequestSpec()])
        let (presented, read) = await present(holder, to: reader, over: Air.sim.radios())

        #expect(read.report?.outcome == .noDocuments)
        #expect(read.response?.documents == nil)
        #expect(presented.end.isNormalEnd, "\(presented.end)")
        #expect(presented.disclosures.first?.released == ElementSelection.none)
    }

    @Test("two documents of two credentials are both returned and verified")
    func twoDocuments() async throws {
        let holder = try demoHolder(credentials: [try DemoMaterial.mDL(), try DemoMaterial.pid()])
        let request = [
            RequestPreset.ageOver18.docRequestSpec(),
            DocRequestSpec(docType: DocType.eudiPID, nameSpaces: [NameSpace.eudiPID: ["age_over_18": false]]),
        ]
        let (_, read) = await present(holder, to: try demoReader(of: holder, request: request), over: Air.memory.radios())

        #expect(read.report?.outcome == .verified, "\(read.report?.failureSummary ?? [])")
        #expect(read.report?.documents.map(\.docType) == [DocType.mDL, DocType.eudiPID])
        #expect(verifiedValues(read, docType: DocType.eudiPID) == ["age_over_18": true])
    }

    // MARK: Reader authentication (ISO/IEC 18013-5 9.1.4), through the trust delegate

    struct IdentityCase: Sendable, CustomTestStringConvertible {
        var name: String
        var roots: [String]
        var signed: Bool
        var testDescription: String { name }
    }

    static let identityCases = [
        IdentityCase(name: "trusted", roots: ["reader-root.pem"], signed: true),
        IdentityCase(name: "untrusted (another root)", roots: ["iaca.pem"], signed: true),
        IdentityCase(name: "untrusted (no roots)", roots: [], signed: true),
        IdentityCase(name: "anonymous", roots: ["reader-root.pem"], signed: false),
    ]

    @Test(arguments: identityCases)
    func theHolderIsShownTheReaderIdentity(_ identity: IdentityCase) async throws {
        let shown = EventLog<ReaderIdentity>()
        let holder = try demoHolder(
            consent: HolderConsent { request in
                for document in request.documents { await shown.record(document.readerAuthentication) }
                return request.allAvailable
            },
            trust: ReaderRootTrust(trustAnchors: try identity.roots.map(DemoMaterial.certificate)))
        let reader = try demoReader(of: holder, readerAuthentication: identity.signed ? try DemoMaterial.readerAuthentication() : nil)
        let (_, read) = await present(holder, to: reader, over: Air.memory.radios())

        #expect(read.report?.outcome == .verified)
        let seen = try #require(shown.all.first)
        #expect(shown.all.count == 1)
        switch identity.name {
        case "trusted":
            #expect(seen == .trusted(subject: "C=US, CN=swift-mdoc Demo Reader", anchor: "C=US, CN=swift-mdoc Demo Reader Root"))
        case "anonymous":
            #expect(seen == .anonymous)
        default:
            guard case .untrusted(let subject, _) = seen else {
                Issue.record("not untrusted: \(seen)")
                return
            }
            #expect(subject == "C=US, CN=swift-mdoc Demo Reader")
        }
    }

    @Test("a reader root with the demo root's name but another key does not make the demo reader trusted")
    func sameNamedRootWithAnotherKeyIsNotTrusted() async throws {
        let genuine = try DemoMaterial.certificate("reader-root.pem")
        let impostor = try CertificateBuilder(
            profile: .readerRoot, subject: .init(commonName: "swift-mdoc Demo Reader Root", country: "US"),
            notValidBefore: genuine.notValidBefore, notValidAfter: genuine.notValidAfter
        ).selfSigned(key: try PrivateKey(generating: .p256))
        #expect(impostor.subject == genuine.subject)
        let shown = EventLog<ReaderIdentity>()
        let holder = try demoHolder(
            consent: HolderConsent { request in
                await shown.record(request.documents[0].readerAuthentication)
                return .none
            },
            trust: ReaderRootTrust(trustAnchors: [impostor]))
        _ = await present(holder, to: try demoReader(of: holder, readerAuthentication: try DemoMaterial.readerAuthentication()),
                          over: Air.memory.radios())

        guard case .untrusted(let subject, _)? = shown.all.first else {
            Issue.record("the reader was not untrusted: \(shown.all)")
            return
        }
        #expect(subject == "C=US, CN=swift-mdoc Demo Reader")
    }

    // MARK: mdoc authentication (ISO/IEC 18013-5 9.1.3)

    @Test("a P-256 device key authenticates with DeviceMac, a P-384 one with DeviceSignature")
    func deviceAuthenticationFollowsTheDeviceKey() async throws {
        let issuer = DocumentIssuer(
            documentSignerKey: try DemoMaterial.privateKey("ds-key.pem"), documentSignerChain: [try DemoMaterial.certificate("ds.pem")])
        let signer = try DemoMaterial.certificate("ds.pem")
        let p384 = try issuer.issueCredential(
            docType: DocType.mDL, nameSpaces: [(NameSpace.mDL, [(identifier: "age_over_18", value: true)])],
            deviceKey: try PrivateKey(generating: .p384),
            validityInfo: ValidityInfo(
                signed: TDate(signer.notValidBefore), validFrom: TDate(signer.notValidBefore), validUntil: TDate(signer.notValidAfter)))
        for (credential, method) in [(try DemoMaterial.mDL(), DocumentReport.DeviceAuthenticationMethod.mac), (p384, .signature)] {
            let holder = try demoHolder(credentials: [credential])
            let (_, read) = await present(holder, to: try demoReader(of: holder), over: Air.memory.radios())
            #expect(read.report?.outcome == .verified, "\(read.report?.failureSummary ?? [])")
            #expect(read.report?.documents.first?.deviceAuthenticationMethod == method)
        }
    }

    // MARK: BLE modes (ISO/IEC 18013-5 8.3.3.1.1)

    @Test(arguments: Air.allCases, [(MdocBLEMode.peripheralServer, MdocBLEMode.centralClient), (.centralClient, .peripheralServer)])
    func aModeTheHolderDoesNotOfferFailsAtOnce(over air: Air, modes: (holder: MdocBLEMode, reader: MdocBLEMode)) async throws {
        let holder = try demoHolder(modes: [modes.holder])
        let reader = try demoReader(of: holder)
        let read = await reader.run(over: air.radios().reader, mode: modes.reader)
        #expect(read.end == .link(LinkError(.noCommonMode, "")))
        #expect(read.end.description == "the mdoc does not offer \(modes.reader.rawValue) mode (it offers: \(modes.holder.rawValue))")
    }

    @Test("with both modes offered the reader chooses peripheral server mode")
    func theReaderPrefersPeripheralServerMode() async throws {
        let holder = try demoHolder()
        let (presented, read) = await present(holder, to: try demoReader(of: holder), over: Air.sim.radios())
        #expect(read.mode == .peripheralServer)
        #expect(presented.mode == .peripheralServer)
    }
}
