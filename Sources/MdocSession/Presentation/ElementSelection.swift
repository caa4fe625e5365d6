import MdocCBOR
import MdocModel

/// The data elements the mdoc holder agreed to release: doc type → name space → data element
/// identifiers (the holder's consent of ISO/IEC 18013-5 6.3.2.4 and 8.3.2.1.2; docs/architecture.md rule 6).
///
/// A selection says nothing about what was requested: ``ResponseBuilder`` returns an element
/// only when it was requested in the DeviceRequest *and* is in the selection *and* the credential
/// holds it. Name spaces and doc types without elements are dropped, so two selections that
/// approve the same elements are equal.
public struct ElementSelection: Sendable, Hashable, CustomStringConvertible {
    /// Doc type → name space → approved data element identifiers; never holds an empty set or map.
    public private(set) var documents: [String: [String: Set<String>]]

    /// A selection approving nothing.
    public init() {
        documents = [:]
    }

    /// A selection approving `documents` (doc type → name space → identifiers).
    public init(_ documents: [String: [String: Set<String>]]) {
        self.documents = [:]
        for (docType, nameSpaces) in documents {
            for (nameSpace, identifiers) in nameSpaces {
                for identifier in identifiers {
                    insert(docType: docType, nameSpace: nameSpace, identifier: identifier)
                }
            }
        }
    }

    /// Approves nothing: the holder declined the whole request.
    public static let none = ElementSelection()

    /// Approves every element `request` asks for, in every DocRequest (8.3.2.1.2.1).
    public static func all(requestedIn request: DeviceRequest) -> ElementSelection {
        var selection = ElementSelection()
        for docRequest in request.docRequests {
            let itemsRequest = docRequest.itemsRequest.value
            for (nameSpace, elements) in itemsRequest.nameSpaces {
                for identifier in elements.keys {
                    selection.insert(docType: itemsRequest.docType, nameSpace: nameSpace, identifier: identifier)
                }
            }
        }
        return selection
    }

    /// `true` when no element is approved.
    public var isEmpty: Bool { documents.isEmpty }

    /// How many elements are approved, over every doc type and name space.
    public var count: Int {
        documents.values.reduce(0) { $0 + $1.values.reduce(0) { $0 + $1.count } }
    }

    /// `true` when the element is approved.
    public func contains(docType: String, nameSpace: String, identifier: String) -> Bool {
        documents[docType]?[nameSpace]?.contains(identifier) == true
    }

    /// `true` when at least one element of `docType` is approved.
    public func contains(docType: String) -> Bool {
        documents[docType] != nil
    }

    /// Approves one element.
    public mutating func insert(docType: String, nameSpace: String, identifier: String) {
        documents[docType, default: [:]][nameSpace, default: []].insert(identifier)
    }

    /// Withdraws the approval of one element, dropping name spaces and doc types left empty.
    public mutating func remove(docType: String, nameSpace: String, identifier: String) {
        guard var nameSpaces = documents[docType], var identifiers = nameSpaces[nameSpace] else { return }
        identifiers.remove(identifier)
        nameSpaces[nameSpace] = identifiers.isEmpty ? nil : identifiers
        documents[docType] = nameSpaces.isEmpty ? nil : nameSpaces
    }

    /// The approved elements as `docType/nameSpace/identifier` lines, sorted.
    public var description: String {
        let lines = documents.flatMap { docType, nameSpaces in
            nameSpaces.flatMap { nameSpace, identifiers in identifiers.map { "\(docType)/\(nameSpace)/\($0)" } }
        }
        return lines.isEmpty ? "ElementSelection(none)" : "ElementSelection(\(lines.sorted().joined(separator: ", ")))"
    }
}
