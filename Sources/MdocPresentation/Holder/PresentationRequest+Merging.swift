import MdocCBOR
import MdocModel
import MdocSession

extension PresentationRequest {
    /// The request as the holder is shown it: each DocRequest of `request` with the identity its
    /// reader authentication established (`identities`, one per DocRequest, in order), readable
    /// element names, and whether `credentials` hold each document and element (ISO/IEC 18013-5
    /// 8.3.2.1.2.1).
    ///
    /// Consent is given per docType (`ElementSelection`), so DocRequests for one docType are
    /// shown as one document under the least favourable of their terms: every element of each,
    /// retained when any of them asks to retain it, under the least trusted reader identity.
    public init(merging request: ReceivedRequest, identities: [ReaderIdentity], credentials: [Credential]) {
        var documents: [Document] = []
        var merges: [String: Merge] = [:]
        for (docRequest, identity) in zip(request.deviceRequest.docRequests, identities) {
            let document = Self.document(docRequest, identity: identity, credentials: credentials)
            if var merge = merges.removeValue(forKey: document.docType) {
                merge.add(document, to: &documents[merge.index])
                merges[document.docType] = merge
            } else {
                merges[document.docType] = Merge(index: documents.count, first: document)
                documents.append(document)
            }
        }
        self.init(documents: documents)
    }

    /// One DocRequest as shown, before merging.
    private static func document(_ docRequest: DocRequest, identity: ReaderIdentity, credentials: [Credential]) -> Document {
        let itemsRequest = docRequest.itemsRequest.value
        let credential = credentials.first { $0.docType == itemsRequest.docType }
        var elements: [Element] = []
        for (nameSpace, requested) in itemsRequest.nameSpaces {
            for (identifier, intentToRetain) in requested {
                elements.append(Element(
                    nameSpace: nameSpace, identifier: identifier,
                    displayName: DataElementCatalogue.displayName(of: identifier, in: nameSpace),
                    intentToRetain: intentToRetain,
                    isAvailable: credential?.item(nameSpace: nameSpace, identifier: identifier) != nil))
            }
        }
        return Document(docType: itemsRequest.docType, elements: elements, readerAuthentication: identity, isAvailable: credential != nil)
    }

    /// The DocRequests of one docType merged into one document. Each element's position is
    /// kept, so that merging stays linear in the elements of all the requests.
    private struct Merge {
        /// The position of the merged document among the documents shown.
        let index: Int
        /// Name space → identifier → position in the merged document's elements.
        private var positions: [String: [String: Int]] = [:]

        init(index: Int, first: Document) {
            self.index = index
            for (position, element) in first.elements.enumerated() where positions[element.nameSpace]?[element.identifier] == nil {
                positions[element.nameSpace, default: [:]][element.identifier] = position
            }
        }

        /// Merges `document` into `merged`.
        mutating func add(_ document: Document, to merged: inout Document) {
            for element in document.elements {
                if let position = positions[element.nameSpace]?[element.identifier] {
                    merged.elements[position].intentToRetain = merged.elements[position].intentToRetain || element.intentToRetain
                } else {
                    positions[element.nameSpace, default: [:]][element.identifier] = merged.elements.count
                    merged.elements.append(element)
                }
            }
            if document.readerAuthentication.trustRank < merged.readerAuthentication.trustRank {
                merged.readerAuthentication = document.readerAuthentication
            }
        }
    }
}
