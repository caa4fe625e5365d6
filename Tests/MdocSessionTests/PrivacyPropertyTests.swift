import MdocCBOR
import MdocCrypto
import MdocIssuance
import MdocModel
import MdocPresentation
import MdocSession
import MdocTestSupport
import PropertyBased
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The holder's privacy guarantees as properties (ISO/IEC 18013-5 8.3.2.1.2.2, 9.1.3; docs/architecture.md
/// section 6): for random credentials, requests and consent decisions, a whole session between a
/// real ``HolderSession`` and ``ReaderSession`` discloses exactly the elements that were
/// requested, approved and held, nothing else; and no private key of the holder leaves it.
@Suite("Holder privacy properties (ISO/IEC 18013-5 8.3.2.1.2.2)")
struct PrivacyPropertyTests {
    /// One data element a credential may hold and a reader may ask for.
    struct Element: Hashable, Sendable, CustomStringConvertible {
        let docType: String
        let nameSpace: String
        let identifier: String

        var description: String { "\(docType)/\(nameSpace)/\(identifier)" }
    }

    static let unknownDocType = "org.example.unknown.1"

    /// Every element the properties draw from: mDL elements in two name spaces, EU PID
    /// elements, and one of a doc type no holder has.
    static let pool: [Element] = [
        ("family_name", NameSpace.mDL), ("given_name", NameSpace.mDL), ("birth_date", NameSpace.mDL),
        ("document_number", NameSpace.mDL), ("age_over_18", NameSpace.mDL), ("age_over_21", NameSpace.mDL),
        ("portrait", NameSpace.mDL), ("resident_city", NameSpace.mDL), ("DHS_compliance", NameSpace.aamva),
    ].map { Element(docType: DocType.mDL, nameSpace: $0.1, identifier: $0.0) }
        + ["family_name", "age_over_18", "birth_place"].map {
            Element(docType: DocType.eudiPID, nameSpace: NameSpace.eudiPID, identifier: $0)
        }
        + [Element(docType: unknownDocType, nameSpace: "org.example.unknown", identifier: "colour")]

    /// A value for `element` in the credential of seed `seed`: distinct per element and seed, so
    /// finding its bytes anywhere means that element was disclosed.
    static func value(of element: Element, seed: Int) -> CBOR {
        switch element.identifier {
        case "birth_date": return .tagged(1004, .textString("19\(10 + seed % 90)-0\(1 + seed % 9)-1\(seed % 10)"))
        case "portrait": return .byteString([0xFF, 0xD8] + Array("portrait-\(seed)".utf8))
        case "age_over_18", "age_over_21": return .boolean(seed % 2 == 0)
        default: return .textString("\(element.docType)/\(element.identifier)-\(seed)-secret")
        }
    }

    static let pki = Result { try TestPKI(name: "privacy") }

    /// Credentials holding the elements of `held` (doc types without held elements have none).
    static func credentials(holding held: Set<Element>, seed: Int) throws -> [Credential] {
        let issuer = DocumentIssuer(documentSignerKey: try pki.get().documentSignerKey, documentSignerChain: [try pki.get().documentSigner])
        var credentials: [Credential] = []
        for docType in [DocType.mDL, DocType.eudiPID] {
            var nameSpaces: [(String, [(String, CBOR)])] = []
            for element in pool where element.docType == docType && held.contains(element) {
                if let index = nameSpaces.firstIndex(where: { $0.0 == element.nameSpace }) {
                    nameSpaces[index].1.append((element.identifier, value(of: element, seed: seed)))
                } else {
                    nameSpaces.append((element.nameSpace, [(element.identifier, value(of: element, seed: seed))]))
                }
            }
            guard !nameSpaces.isEmpty else { continue }
            credentials.append(try issuer.issueCredential(
                docType: docType, nameSpaces: nameSpaces, deviceKey: PrivateKey(generating: .p256),
                validityInfo: TestCredentials.validityInfo))
        }
        return credentials
    }

    /// The request for `requested`, one DocRequest per doc type, in pool order.
    static func request(_ requested: Set<Element>, retained: Set<Element>) -> [DocRequestSpec] {
        var specs: [DocRequestSpec] = []
        for element in pool where requested.contains(element) {
            var spec = specs.last(where: { $0.docType == element.docType })
                ?? DocRequestSpec(docType: element.docType, nameSpaces: [:])
            var elements = spec.nameSpaces[element.nameSpace] ?? OrderedMap()
            elements[element.identifier] = retained.contains(element)
            spec.nameSpaces[element.nameSpace] = elements
            if let index = specs.firstIndex(where: { $0.docType == element.docType }) {
                specs[index] = spec
            } else {
                specs.append(spec)
            }
        }
        return specs
    }

    static func subset(_ mask: [Bool]) -> Set<Element> {
        Set(zip(pool, mask).filter(\.1).map(\.0))
    }

    static let mask = Gen.bool.array(of: pool.count)

    @Test("the response holds exactly the requested, approved and held elements, and no private key")
    func disclosesExactlyWhatWasRequestedApprovedAndHeld() async {
        await propertyCheck(count: 60, input: Self.mask, Self.mask, Self.mask, Self.mask, Gen.int(in: 0...1_000_000)) {
            heldMask, requestedMask, approvedMask, retainedMask, seed in
            var held = Self.subset(heldMask).filter { $0.docType != Self.unknownDocType }
            var requested = Self.subset(requestedMask)
            if requested.isEmpty { requested = [Self.pool[0]] }
            if held.isEmpty { held = [Self.pool[3]] }
            let approved = Self.subset(approvedMask)
            let expected = requested.intersection(approved).intersection(held)

            let credentials = try Self.credentials(holding: held, seed: seed)
            let eDeviceKey = try PrivateKey(generating: .p256)
            var pair = try SessionPair(
                credentials: credentials, request: Self.request(requested, retained: Self.subset(retainedMask)),
                issuerAnchors: [try Self.pki.get().iaca], eDeviceKey: eDeviceKey)
            var selection = ElementSelection()
            for element in approved {
                selection.insert(docType: element.docType, nameSpace: element.nameSpace, identifier: element.identifier)
            }
            let (_, report, _) = try pair.exchange { _ in selection }

            // What the holder sent, decrypted independently of the reader session.
            let plaintexts = try pair.decryptedHolderMessages()
            #expect(plaintexts.count == 1)
            let response = try DeviceResponse(encoded: try #require(plaintexts.first))
            var disclosed: [Element: CBOR] = [:]
            for document in response.documents ?? [] {
                for (nameSpace, items) in document.issuerSigned.nameSpaces ?? OrderedMap() {
                    for item in items {
                        disclosed[Element(docType: document.docType, nameSpace: nameSpace, identifier: item.value.elementIdentifier)] = item.value.elementValue
                    }
                }
                #expect(document.deviceSigned.nameSpaces.value.nameSpaces.isEmpty, "device-signed elements were added")
            }
            #expect(Set(disclosed.keys) == expected, "held \(held.sorted(by: { $0.description < $1.description }))")
            for (element, value) in disclosed {
                #expect(value == Self.value(of: element, seed: seed), "\(element)")
            }

            // Every requested element that is not returned is reported as not returned, code 0.
            var notReturned: Set<Element> = []
            for document in response.documents ?? [] {
                for (nameSpace, items) in document.errors?.nameSpaces ?? OrderedMap() {
                    for (identifier, code) in items {
                        #expect(code == .dataNotReturned)
                        notReturned.insert(Element(docType: document.docType, nameSpace: nameSpace, identifier: identifier))
                    }
                }
            }
            let returnedDocTypes = Set((response.documents ?? []).map(\.docType))
            let missing = requested.subtracting(expected)
            #expect(notReturned == missing.filter { returnedDocTypes.contains($0.docType) })
            let reportedDocTypes = Set((response.documentErrors ?? []).flatMap { $0.errors.keys })
            #expect(reportedDocTypes == Set(requested.map(\.docType)).subtracting(returnedDocTypes))

            // The reader verified every document and sees exactly the same elements.
            #expect(report.outcome == (expected.isEmpty ? .noDocuments : .verified), "\(report.failureSummary)")
            let seen = report.documents.flatMap { document in
                document.elements.map { Element(docType: document.docType, nameSpace: $0.nameSpace, identifier: $0.identifier) }
            }
            #expect(Set(seen) == expected)

            // Nothing of an element held but not disclosed is in the plaintext.
            let plaintext: [UInt8] = Array(plaintexts.joined())
            for element in held.subtracting(expected) {
                let credential = try #require(credentials.first { $0.docType == element.docType })
                let item = try #require(credential.item(nameSpace: element.nameSpace, identifier: element.identifier))
                #expect(plaintext.offsets(of: Array(item.bytes)).isEmpty, "\(element) was sent")
                #expect(plaintext.offsets(of: Self.value(of: element, seed: seed).encoded()).isEmpty || element.identifier.hasPrefix("age_over"),
                        "the value of \(element) was sent")
            }

            // No private key of the holder is in anything either side sent, or in the plaintext.
            let secrets = credentials.map(\.deviceKey.rawRepresentation) + [eDeviceKey.rawRepresentation]
            for message in pair.holderSent + pair.readerSent + plaintexts {
                for secret in secrets {
                    #expect(message.offsets(of: secret).isEmpty, "a private key left the holder")
                }
            }
        }
    }
}
