import MdocPresentation
import MdocSession

/// A holder's standing consent decisions, read from a JSON policy file (docs/consent-policy.md),
/// applied to a request instead of asking interactively (ISO/IEC 18013-5 6.3.2.4: the holder
/// decides which requested elements are released; docs/architecture.md rule 6).
///
/// Deny by default: an element is released only when a rule mentions it and that rule's
/// conditions hold, or when no rule mentions it and the policy's default is `allow`. When
/// several rules mention an element, it is released if any one of them allows it.
package struct ConsentPolicy: Sendable, Hashable {
    /// What happens to an element that no rule mentions.
    package enum DefaultDecision: String, Sendable, CaseIterable {
        /// Refuse it (the default).
        case deny
        /// Release it; meant for demonstrations and tests.
        case allow
    }

    /// One allow list: elements of a doc type (and optionally one name space) that may be
    /// released, with optional conditions on the reader and on retention.
    package struct Rule: Sendable, Hashable {
        /// The document type the rule is about, such as `org.iso.18013.5.1.mDL`.
        package var docType: String
        /// The name space the rule is about; `nil` for every name space of the doc type.
        package var nameSpace: String?
        /// The data element identifiers allowed; ``ConsentPolicy/wildcard`` allows all.
        package var allow: Set<String>
        /// Release only when the DocRequest's reader authentication is trusted (ISO/IEC 18013-5
        /// 9.1.4).
        package var requireTrustedReader: Bool
        /// Refuse elements the reader marks with IntentToRetain = true (8.3.2.1.2.1).
        package var refuseRetained: Bool

        /// A rule allowing `allow` in `docType` / `nameSpace` under the given conditions.
        package init(docType: String, nameSpace: String? = nil, allow: Set<String>,
                    requireTrustedReader: Bool = false, refuseRetained: Bool = false) {
            self.docType = docType
            self.nameSpace = nameSpace
            self.allow = allow
            self.requireTrustedReader = requireTrustedReader
            self.refuseRetained = refuseRetained
        }

        /// Whether the rule speaks about this element.
        func mentions(docType: String, nameSpace: String, identifier: String) -> Bool {
            docType == self.docType && (self.nameSpace == nil || self.nameSpace == nameSpace)
                && (allow.contains(identifier) || allow.contains(ConsentPolicy.wildcard))
        }

        /// `nil` when the rule's conditions hold for this element, else why not.
        func refusal(intentToRetain: Bool, reader: ReaderIdentity) -> String? {
            if requireTrustedReader {
                switch reader {
                case .trusted: break
                case .anonymous: return "requires a trusted reader; the request is not signed"
                case .untrusted(_, let reason): return "requires a trusted reader; reader authentication failed: \(reason)"
                }
            }
            if refuseRetained, intentToRetain {
                return "refuses elements the reader will retain"
            }
            return nil
        }
    }

    /// The decision about one requested element, with the reason for people.
    package struct ElementDecision: Sendable, Hashable, CustomStringConvertible {
        /// The requested document type.
        package var docType: String
        /// The element's name space.
        package var nameSpace: String
        /// The data element identifier.
        package var identifier: String
        /// `true` when the element is released.
        package var released: Bool
        /// Why, such as "allowed by rules[0]" or "no rule allows it (default deny)".
        package var reason: String

        /// `release`/`refuse docType/nameSpace/identifier: reason`.
        package var description: String {
            "\(released ? "release" : "refuse") \(docType)/\(nameSpace)/\(identifier): \(reason)"
        }
    }

    /// The outcome of applying the policy to a request.
    package struct Evaluation: Sendable, Hashable {
        /// The elements released.
        package var selection: ElementSelection
        /// One decision per requested element, in request order.
        package var decisions: [ElementDecision]
    }

    /// The allow-list entry that allows every element of a rule's doc type and name space.
    package static let wildcard = "*"
    /// The largest policy file read: 1 MiB, far above any hand-written policy.
    package static let maximumFileSize = 1024 * 1024

    /// What happens to elements no rule mentions.
    package var defaultDecision: DefaultDecision
    /// The allow rules, in file order.
    package var rules: [Rule]

    /// A policy with `rules` and `defaultDecision`.
    package init(defaultDecision: DefaultDecision = .deny, rules: [Rule]) {
        self.defaultDecision = defaultDecision
        self.rules = rules
    }

    /// Applies the policy to every requested element. Elements and documents the holder does
    /// not have are never released.
    package func evaluate(_ request: PresentationRequest) -> Evaluation {
        var selection = ElementSelection()
        var decisions: [ElementDecision] = []
        for document in request.documents {
            for element in document.elements {
                let (released, reason) = decide(document: document, element: element)
                if released {
                    selection.insert(docType: document.docType, nameSpace: element.nameSpace, identifier: element.identifier)
                }
                decisions.append(ElementDecision(
                    docType: document.docType, nameSpace: element.nameSpace, identifier: element.identifier,
                    released: released, reason: reason))
            }
        }
        return Evaluation(selection: selection, decisions: decisions)
    }

    private func decide(document: PresentationRequest.Document,
                        element: PresentationRequest.Element) -> (Bool, String) {
        guard document.isAvailable else { return (false, "the holder has no \(document.docType) document") }
        guard element.isAvailable else { return (false, "not in the holder's credential") }
        var refusals: [String] = []
        for (index, rule) in rules.enumerated()
        where rule.mentions(docType: document.docType, nameSpace: element.nameSpace, identifier: element.identifier) {
            if let refusal = rule.refusal(intentToRetain: element.intentToRetain, reader: document.readerAuthentication) {
                refusals.append("rules[\(index)] \(refusal)")
            } else {
                return (true, "allowed by rules[\(index)]")
            }
        }
        if !refusals.isEmpty { return (false, refusals.joined(separator: "; ")) }
        switch defaultDecision {
        case .allow: return (true, "no rule mentions it (default allow)")
        case .deny: return (false, "no rule allows it (default deny)")
        }
    }
}
