import MdocCBOR
import MdocModel
@testable import MdocSession
import MdocTestSupport
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

@Suite("ReportList: a report's checks and elements held as runs over the returned items (ISO/IEC 18013-5 9.3.1)")
struct ReportListTests {
    /// The Annex D document as decoded.
    static func annexDDocument() throws -> Document {
        let response = try DeviceResponse(encoded: Vectors.annexD("device_response"))
        return try #require(response.documents?.first)
    }

    /// The value digest check of each returned item, built the way a report held them as values.
    static func expectedDigestChecks(_ document: Document) -> [VerificationCheck] {
        (document.issuerSigned.nameSpaces ?? OrderedMap()).flatMap { nameSpace, items in
            items.map { item in
                VerificationCheck(
                    .valueDigest, subject: .element(nameSpace: nameSpace, identifier: item.value.elementIdentifier), outcome: .passed,
                    detail: "digestID \(item.value.digestID)")
            }
        }
    }

    @Test("the Annex D report holds the checks and elements an array of values held, in the same order")
    func annexDReport() throws {
        let report = try AnnexDVerificationFailureTests.verifier().verify(Vectors.annexD("device_response"), at: AnnexDVerificationFailureTests.time)
        let documentReport = try #require(report.documents.first)
        let document = try Self.annexDDocument()
        let digestChecks = documentReport.checks.filter { $0.kind == .valueDigest }
        #expect(Array(digestChecks) == Self.expectedDigestChecks(document))
        // By position and by iteration alike.
        #expect(documentReport.checks.indices.map { documentReport.checks[$0] } == Array(documentReport.checks))
        let expectedElements = (document.issuerSigned.nameSpaces ?? OrderedMap()).flatMap { nameSpace, items in
            items.map { item in
                DisclosedElement(
                    nameSpace: nameSpace, identifier: item.value.elementIdentifier, value: item.value.elementValue, source: .issuerSigned,
                    digestID: item.value.digestID, issuerAuthenticated: true, verified: true)
            }
        }
        #expect(Array(documentReport.elements) == expectedElements)
        #expect(documentReport.elements.indices.map { documentReport.elements[$0] } == expectedElements)
        #expect(documentReport.elements.count == 6)
    }

    /// A list of: two checks held as values, the Annex D value digest checks as a run with one
    /// failure, one value, and the same items again under another name space, all failed.
    static func segmentedList() throws -> (list: ReportList<VerificationCheck>, array: [VerificationCheck]) {
        let document = try Self.annexDDocument()
        let items = try #require(document.issuerSigned.nameSpaces?["org.iso.18013.5.1"])
        let failure = VerificationCheck.Outcome.failed(.digestMismatch, "no match")
        var outcomes = [VerificationCheck.Outcome](repeating: .passed, count: items.count)
        outcomes[3] = failure
        let first = VerificationCheck(.issuerCertificate, subject: .named("CN=ds"), outcome: .passed)
        let second = VerificationCheck(.issuerSignature, subject: .issuerAuth, outcome: .passed)
        let middle = VerificationCheck(.validity, subject: .mobileSecurityObject, outcome: .passed)
        var list: ReportList<VerificationCheck> = [first, second]
        list.append(run: ValueDigestChecks(nameSpace: "org.iso.18013.5.1", items: items, outcomes: outcomes))
        list.append(middle)
        list.append(run: ValueDigestChecks(
            nameSpace: "org.example", items: items, outcomes: Array(repeating: failure, count: items.count)))
        list.append(run: ValueDigestChecks(nameSpace: "org.example.empty", items: [], outcomes: []))

        func check(_ nameSpace: String, _ item: EmbeddedCBOR<IssuerSignedItem>, _ outcome: VerificationCheck.Outcome) -> VerificationCheck {
            VerificationCheck(
                .valueDigest, subject: .element(nameSpace: nameSpace, identifier: item.value.elementIdentifier), outcome: outcome,
                detail: "digestID \(item.value.digestID)")
        }
        let array = [first, second] + zip(items, outcomes).map { check("org.iso.18013.5.1", $0, $1) } + [middle]
            + items.map { check("org.example", $0, failure) }
        return (list, array)
    }

    @Test("entries across values and runs read as the array of them, by position and in order")
    func segments() throws {
        let (list, array) = try Self.segmentedList()
        #expect(list.count == array.count)
        #expect(list.count == 2 + 6 + 1 + 6)
        #expect(list.indices.map { list[$0] } == array)
        #expect(Array(list) == array)
        #expect(list.first == array.first)
        #expect(list.last == array.last)
        #expect(!list[4].failed && list[5].failed && !list[8].failed && list[9].failed)
        #expect(list.filter(\.failed).count == 7)
        #expect(list == ReportList(array))
        #expect(list != ReportList(array.dropLast()))
        #expect(list.description == array.description)
    }

    @Test("kinds and outcomes are read as the checks give them, and stop when asked")
    func outcomesWithoutBuilding() throws {
        let (list, array) = try Self.segmentedList()
        var read: [(VerificationCheck.Kind, VerificationCheck.Outcome)] = []
        list.forEachOutcome { kind, outcome in
            read.append((kind, outcome))
            return true
        }
        #expect(read.map(\.0) == array.map(\.kind))
        #expect(read.map(\.1) == array.map(\.outcome))
        var untilFailure = 0
        list.forEachOutcome { _, outcome in
            untilFailure += 1
            if case .failed = outcome { return false }
            return true
        }
        #expect(untilFailure == 6)
    }

    @Test("a list takes every change an array takes, with the same result")
    func changes() throws {
        let (list, array) = try Self.segmentedList()
        let extra = VerificationCheck(.deviceAuthentication, subject: .deviceAuth, outcome: .passed)

        var appended = list
        var appendedArray = array
        appended.append(extra)
        appendedArray.append(extra)
        #expect(appended == ReportList(appendedArray))
        #expect(appended.last == extra)
        #expect(list.count == array.count, "the original is unchanged")

        var inserted = list
        var insertedArray = array
        inserted.insert(extra, at: 0)
        insertedArray.insert(extra, at: 0)
        #expect(Array(inserted) == insertedArray)
        inserted.insert(extra, at: 9)
        insertedArray.insert(extra, at: 9)
        #expect(Array(inserted) == insertedArray)

        var replaced = list
        var replacedArray = array
        replaced.replaceSubrange(4..<12, with: [extra])
        replacedArray.replaceSubrange(4..<12, with: [extra])
        #expect(Array(replaced) == replacedArray)
        replaced.append(contentsOf: [extra, extra])
        replacedArray.append(contentsOf: [extra, extra])
        #expect(Array(replaced) == replacedArray)

        var removed = list
        removed.removeAll()
        #expect(removed.isEmpty)
        #expect(removed == [])
        removed.append(extra)
        #expect(Array(removed) == [extra])
    }

    @Test("an issuer-signed element is verified only when its document is and issuer data authentication vouches for it")
    func elementStatus() throws {
        let document = try Self.annexDDocument()
        let items = try #require(document.issuerSigned.nameSpaces?["org.iso.18013.5.1"])
        let flags = [true, false, true]
        for documentVerified in [true, false] {
            let run = IssuerSignedElements(nameSpace: "org.iso.18013.5.1", items: items, issuerAuthenticated: flags, documentVerified: documentVerified)
            var list = ReportList<DisclosedElement>()
            list.append(run: run)
            #expect(list.map(\.issuerAuthenticated) == [true, false, true, false, false, false], "past the flags: not authenticated")
            #expect(list.map(\.verified) == [documentVerified, false, documentVerified, false, false, false])
            #expect(list.map(\.identifier) == items.map(\.value.elementIdentifier))
            #expect(list.map(\.digestID) == items.map(\.value.digestID))
            #expect(list.allSatisfy { $0.source == .issuerSigned && $0.nameSpace == "org.iso.18013.5.1" })
        }
    }
}
