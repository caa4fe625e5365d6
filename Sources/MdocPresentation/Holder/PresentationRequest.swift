import MdocModel
import MdocSession

/// A DeviceRequest as the holder is shown it before consenting (ISO/IEC 18013-5 8.3.2.1.2.1,
/// 9.1.4): per requested document, the elements with readable names and whether the reader
/// intends to retain each, who is asking, and whether the holder has the document at all.
public struct PresentationRequest: Sendable {
    /// One requested data element.
    public struct Element: Sendable, Hashable {
        /// The name space, such as `NameSpace.mDL`.
        public var nameSpace: String
        /// The data element identifier, such as `family_name`.
        public var identifier: String
        /// The readable name from `DataElementCatalogue`, or the identifier.
        public var displayName: String
        /// `true` when the reader says it will keep the value (IntentToRetain).
        public var intentToRetain: Bool
        /// `true` when the holder's credential holds this element.
        public var isAvailable: Bool

        /// An element of a request.
        public init(nameSpace: String, identifier: String, displayName: String, intentToRetain: Bool, isAvailable: Bool) {
            self.nameSpace = nameSpace
            self.identifier = identifier
            self.displayName = displayName
            self.intentToRetain = intentToRetain
            self.isAvailable = isAvailable
        }
    }

    /// One DocRequest.
    public struct Document: Sendable, Hashable {
        /// The requested document type.
        public var docType: String
        /// The requested elements, in request order.
        public var elements: [Element]
        /// Who signed this DocRequest, as reader authentication established it.
        public var readerAuthentication: ReaderIdentity
        /// `true` when the holder has a credential of this document type.
        public var isAvailable: Bool

        /// A document of a request.
        public init(docType: String, elements: [Element], readerAuthentication: ReaderIdentity, isAvailable: Bool) {
            self.docType = docType
            self.elements = elements
            self.readerAuthentication = readerAuthentication
            self.isAvailable = isAvailable
        }
    }

    /// The requested documents, in request order.
    public var documents: [Document]

    /// A request of `documents`.
    public init(documents: [Document]) {
        self.documents = documents
    }

    /// Approves every requested element the holder has: the selection of a holder who says yes
    /// to everything.
    public var allAvailable: ElementSelection {
        var selection = ElementSelection()
        for document in documents where document.isAvailable {
            for element in document.elements where element.isAvailable {
                selection.insert(docType: document.docType, nameSpace: element.nameSpace, identifier: element.identifier)
            }
        }
        return selection
    }
}
