import MdocFiles

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ConsentPolicy {
    /// Reads the JSON policy file at `path` (format: docs/consent-policy.md). Unknown members
    /// are rejected, so a misspelt condition cannot silently loosen the policy.
    package static func load(file path: String) throws(ConsentPolicyError) -> ConsentPolicy {
        let bytes: [UInt8]
        do {
            bytes = try BoundedFileReader.contents(of: path, maximumSize: maximumFileSize)
        } catch {
            switch error {
            case .cannotOpen(let reason): throw ConsentPolicyError(.unreadable, source: path, "cannot open: \(reason)")
            case .readFailed(let reason): throw ConsentPolicyError(.unreadable, source: path, "read failed: \(reason)")
            case .tooLarge:
                throw ConsentPolicyError(.unreadable, source: path, "larger than the \(maximumFileSize)-byte policy file limit")
            }
        }
        return try ConsentPolicy(json: bytes, source: path)
    }

    /// Parses a JSON policy; `source` names it in errors.
    package init(json bytes: [UInt8], source: String = "policy") throws(ConsentPolicyError) {
        do {
            self = try JSONDecoder().decode(PolicyFile.self, from: Data(bytes)).policy
        } catch let error as DecodingError {
            throw Self.policyError(error, source: source)
        } catch {
            throw ConsentPolicyError(.malformedJSON, source: source, "not valid JSON: \(error)")
        }
    }

    /// Describes a decoding failure with the JSON path where it happened.
    private static func policyError(_ error: DecodingError, source: String) -> ConsentPolicyError {
        func path(_ codingPath: [any CodingKey]) -> String {
            var text = "policy"
            for key in codingPath {
                if let index = key.intValue { text += "[\(index)]" } else { text += ".\(key.stringValue)" }
            }
            return text
        }
        switch error {
        case .keyNotFound(let key, let context):
            return ConsentPolicyError(.invalidPolicy, source: source,
                                      "\(path(context.codingPath)): the member \"\(key.stringValue)\" is missing")
        case .typeMismatch(let type, let context):
            return ConsentPolicyError(.invalidPolicy, source: source,
                                      "\(path(context.codingPath)): expected \(PolicyFile.jsonName(of: type))")
        case .valueNotFound(let type, let context):
            return ConsentPolicyError(.invalidPolicy, source: source,
                                      "\(path(context.codingPath)): null where \(PolicyFile.jsonName(of: type)) is required")
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            let detail = context.underlyingError.map { " (\($0))" } ?? ""
            return ConsentPolicyError(.malformedJSON, source: source, "not valid JSON: \(context.debugDescription)\(detail)")
        case .dataCorrupted(let context):
            return ConsentPolicyError(.invalidPolicy, source: source, "\(path(context.codingPath)): \(context.debugDescription)")
        @unknown default:
            return ConsentPolicyError(.invalidPolicy, source: source, "\(error)")
        }
    }
}

/// The policy file's JSON shape (docs/consent-policy.md), decoded member by member so that
/// unknown members and empty values are errors with their path.
private struct PolicyFile: Decodable {
    let policy: ConsentPolicy

    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        try Self.rejectUnknownMembers(of: container, allowed: ["default", "rules"])
        var defaultDecision = ConsentPolicy.DefaultDecision.deny
        if let text = try container.decodeIfPresent(String.self, forKey: Key("default")) {
            guard let decision = ConsentPolicy.DefaultDecision(rawValue: text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: Key("default"), in: container, debugDescription: "\"\(text)\" is neither \"deny\" nor \"allow\"")
            }
            defaultDecision = decision
        }
        var rules: [ConsentPolicy.Rule] = []
        if container.contains(Key("rules")) {
            var array = try container.nestedUnkeyedContainer(forKey: Key("rules"))
            while !array.isAtEnd {
                rules.append(try array.decode(RuleObject.self).rule)
            }
        }
        policy = ConsentPolicy(defaultDecision: defaultDecision, rules: rules)
    }

    struct RuleObject: Decodable {
        let rule: ConsentPolicy.Rule

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            try PolicyFile.rejectUnknownMembers(
                of: container, allowed: ["docType", "nameSpace", "allow", "requireTrustedReader", "refuseRetained"])
            let docType = try container.decode(String.self, forKey: Key("docType"))
            guard !docType.isEmpty else {
                throw DecodingError.dataCorruptedError(forKey: Key("docType"), in: container, debugDescription: "the doc type is empty")
            }
            let nameSpace = try container.decodeIfPresent(String.self, forKey: Key("nameSpace"))
            if nameSpace?.isEmpty == true {
                throw DecodingError.dataCorruptedError(forKey: Key("nameSpace"), in: container, debugDescription: "the name space is empty")
            }
            let allow = try container.decode([String].self, forKey: Key("allow"))
            guard !allow.isEmpty, !allow.contains("") else {
                throw DecodingError.dataCorruptedError(
                    forKey: Key("allow"), in: container,
                    debugDescription: "the allow list must name at least one element (or \"\(ConsentPolicy.wildcard)\") and no empty identifier")
            }
            rule = ConsentPolicy.Rule(
                docType: docType, nameSpace: nameSpace, allow: Set(allow),
                requireTrustedReader: try container.decodeIfPresent(Bool.self, forKey: Key("requireTrustedReader")) ?? false,
                refuseRetained: try container.decodeIfPresent(Bool.self, forKey: Key("refuseRetained")) ?? false)
        }
    }

    static func rejectUnknownMembers(of container: KeyedDecodingContainer<Key>, allowed: Set<String>) throws {
        for key in container.allKeys where !allowed.contains(key.stringValue) {
            throw DecodingError.dataCorrupted(.init(
                codingPath: container.codingPath + [key],
                debugDescription: "unknown member; expected one of \(allowed.sorted().joined(separator: ", "))"))
        }
    }

    /// The JSON word for a Swift type in messages.
    static func jsonName(of type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        case is [String].Type: return "an array of strings"
        default: return "an object or array"
        }
    }
}
