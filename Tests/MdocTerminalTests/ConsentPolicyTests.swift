import Foundation
import MdocConsent
import MdocPresentation
import MdocSession
import MdocText
import Testing

@Suite struct ConsentPolicyTests {
    typealias Fixture = ConsentTestSupport

    private func policy(_ json: String) throws -> ConsentPolicy {
        try ConsentPolicy(json: Array(json.utf8))
    }

    @Test func parsesTheDocumentedFormat() throws {
        let parsed = try policy("""
            {"default": "deny", "rules": [
              {"docType": "org.iso.18013.5.1.mDL", "nameSpace": "org.iso.18013.5.1",
               "allow": ["age_over_18", "portrait"], "requireTrustedReader": true, "refuseRetained": true},
              {"docType": "org.iso.18013.5.1.mDL", "allow": ["*"]}
            ]}
            """)
        #expect(parsed == ConsentPolicy(defaultDecision: .deny, rules: [
            .init(docType: Fixture.mDL, nameSpace: Fixture.nameSpace, allow: ["age_over_18", "portrait"],
                  requireTrustedReader: true, refuseRetained: true),
            .init(docType: Fixture.mDL, allow: ["*"]),
        ]))
    }

    @Test func emptyPolicyDeniesEverything() throws {
        let parsed = try policy("{}")
        #expect(parsed.defaultDecision == .deny && parsed.rules.isEmpty)
        let evaluation = parsed.evaluate(Fixture.request())
        #expect(evaluation.selection.isEmpty)
        #expect(evaluation.decisions.count == 4)
        #expect(evaluation.decisions.allSatisfy { !$0.released })
        #expect(evaluation.decisions[0].reason == "no rule allows it (default deny)")
    }

    @Test func allowListReleasesOnlyListedAvailableElements() throws {
        let parsed = try policy("""
            {"rules": [{"docType": "org.iso.18013.5.1.mDL", "nameSpace": "org.iso.18013.5.1",
                        "allow": ["age_over_18", "signature_usual_mark"]}]}
            """)
        let evaluation = parsed.evaluate(Fixture.request())
        #expect(evaluation.selection == Fixture.selection(["age_over_18"]))
        #expect(evaluation.decisions.map(\.released) == [false, false, true, false])
        #expect(evaluation.decisions[2].reason == "allowed by rules[0]")
        #expect(evaluation.decisions[3].reason == "not in the holder's credential")
        #expect(evaluation.decisions[2].description == "release org.iso.18013.5.1.mDL/org.iso.18013.5.1/age_over_18: allowed by rules[0]")
    }

    @Test func otherNameSpaceOrDocTypeDoesNotMatch() throws {
        let parsed = try policy("""
            {"rules": [{"docType": "org.iso.18013.5.1.mDL", "nameSpace": "org.iso.18013.5.1.aamva", "allow": ["*"]},
                       {"docType": "eu.europa.ec.eudi.pid.1", "allow": ["*"]}]}
            """)
        #expect(parsed.evaluate(Fixture.request()).selection.isEmpty)
    }

    @Test(arguments: [
        (ReaderIdentity.trusted(subject: "CN=R", anchor: "CN=Root"), true),
        (.anonymous, false),
        (.untrusted(subject: "CN=R", reason: "signature does not verify"), false),
    ])
    func requireTrustedReader(reader: ReaderIdentity, released: Bool) throws {
        let parsed = try policy("""
            {"rules": [{"docType": "org.iso.18013.5.1.mDL", "allow": ["family_name"], "requireTrustedReader": true}]}
            """)
        let evaluation = parsed.evaluate(Fixture.request(reader: reader))
        #expect(evaluation.selection == (released ? Fixture.selection(["family_name"]) : .none))
        if !released { #expect(evaluation.decisions[0].reason.contains("requires a trusted reader")) }
    }

    @Test func refuseRetainedRefusesOnlyRetainedElements() throws {
        let parsed = try policy("""
            {"rules": [{"docType": "org.iso.18013.5.1.mDL", "allow": ["*"], "refuseRetained": true}]}
            """)
        let evaluation = parsed.evaluate(Fixture.request())
        #expect(evaluation.selection == Fixture.selection(["family_name", "age_over_18"]))
        #expect(evaluation.decisions[1].reason == "rules[0] refuses elements the reader will retain")
    }

    @Test func anyMatchingRuleMayAllow() throws {
        let parsed = try policy("""
            {"rules": [{"docType": "org.iso.18013.5.1.mDL", "allow": ["portrait"], "refuseRetained": true},
                       {"docType": "org.iso.18013.5.1.mDL", "allow": ["portrait"], "requireTrustedReader": true}]}
            """)
        #expect(parsed.evaluate(Fixture.request()).selection == Fixture.selection(["portrait"]))
        let anonymous = parsed.evaluate(Fixture.request(reader: .anonymous))
        #expect(anonymous.selection.isEmpty)
        #expect(anonymous.decisions[1].reason.contains("rules[0]") && anonymous.decisions[1].reason.contains("rules[1]"))
    }

    @Test func defaultAllowReleasesUnmentionedButRulesStillRestrict() throws {
        let parsed = try policy("""
            {"default": "allow", "rules": [{"docType": "org.iso.18013.5.1.mDL", "allow": ["portrait"], "refuseRetained": true}]}
            """)
        let evaluation = parsed.evaluate(Fixture.requestWithMissingDocument())
        #expect(evaluation.selection == Fixture.selection(["family_name", "age_over_18"]))
        #expect(evaluation.decisions.last?.reason == "the holder has no eu.europa.ec.eudi.pid.1 document")
    }

    @Test(arguments: [
        ("{\"rules\": [", ConsentPolicyError.Code.malformedJSON, "not valid JSON"),
        ("[]", .invalidPolicy, "policy"),
        ("{\"default\": \"maybe\"}", .invalidPolicy, "policy.default"),
        ("{\"defualt\": \"deny\"}", .invalidPolicy, "policy.defualt: unknown member"),
        ("{\"rules\": {}}", .invalidPolicy, "policy.rules"),
        ("{\"rules\": [{\"allow\": [\"*\"]}]}", .invalidPolicy, "\"docType\" is missing"),
        ("{\"rules\": [{\"docType\": \"\", \"allow\": [\"*\"]}]}", .invalidPolicy, "policy.rules[0].docType"),
        ("{\"rules\": [{\"docType\": \"d\", \"nameSpace\": \"\", \"allow\": [\"*\"]}]}", .invalidPolicy, "policy.rules[0].nameSpace"),
        ("{\"rules\": [{\"docType\": \"d\", \"allow\": []}]}", .invalidPolicy, "policy.rules[0].allow"),
        ("{\"rules\": [{\"docType\": \"d\", \"allow\": \"*\"}]}", .invalidPolicy, "policy.rules[0].allow"),
        ("{\"rules\": [{\"docType\": \"d\", \"allow\": [\"*\"], \"requireTrustedreader\": true}]}", .invalidPolicy,
         "policy.rules[0].requireTrustedreader: unknown member"),
        ("{\"rules\": [{\"docType\": \"d\", \"allow\": [\"*\"], \"refuseRetained\": \"yes\"}]}", .invalidPolicy,
         "policy.rules[0].refuseRetained: expected true or false"),
    ])
    func invalidPoliciesAreTypedErrorsWithTheirPath(json: String, code: ConsentPolicyError.Code, fragment: String) throws {
        let error = try #require(throws: ConsentPolicyError.self) { try policy(json) }
        #expect(error.code == code)
        #expect(error.reason.contains(fragment), "\(error.reason)")
        #expect(error.source == "policy")
    }

    @Test func loadsFromAFileAndNamesItInErrors() throws {
        let good = try QRTestSupport.temporaryFile(Array("{\"default\": \"allow\"}".utf8), suffix: ".json")
        defer { try? FileManager.default.removeItem(atPath: good) }
        #expect(try ConsentPolicy.load(file: good).defaultDecision == .allow)

        let bad = try QRTestSupport.temporaryFile(Array("{\"rules\": 1}".utf8), suffix: ".json")
        defer { try? FileManager.default.removeItem(atPath: bad) }
        let error = try #require(throws: ConsentPolicyError.self) { try ConsentPolicy.load(file: bad) }
        #expect(error.source == bad && error.code == .invalidPolicy)

        let missing = QRTestSupport.temporaryPath(".json")
        #expect(throws: ConsentPolicyError(.unreadable, source: "", "")) { try ConsentPolicy.load(file: missing) }
    }

    @Test func policyFileSizeLimit() throws {
        let padding = String(repeating: " ", count: ConsentPolicy.maximumFileSize - 2)
        let atLimit = try QRTestSupport.temporaryFile(Array("{}\(padding)".utf8), suffix: ".json")
        defer { try? FileManager.default.removeItem(atPath: atLimit) }
        #expect(try ConsentPolicy.load(file: atLimit).rules.isEmpty)
        let overLimit = try QRTestSupport.temporaryFile(Array("{} \(padding)".utf8), suffix: ".json")
        defer { try? FileManager.default.removeItem(atPath: overLimit) }
        let error = try #require(throws: ConsentPolicyError.self) { try ConsentPolicy.load(file: overLimit) }
        #expect(error.code == .unreadable && error.reason.contains("limit"))
    }
}
