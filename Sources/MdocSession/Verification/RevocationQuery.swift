import MdocCBOR
import MdocCrypto

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a ``RevocationPolicy`` asks its ``RevocationChecker`` about one document.
public struct RevocationQuery: Sendable {
    /// A reference into a status list of the IETF Token Status List: the document's status is
    /// the entry at ``index`` of the list published at ``uri``.
    public struct StatusListReference: Sendable, Hashable {
        /// The entry (`idx`).
        public var index: UInt64
        /// Where the status list token is published (`uri`).
        public var uri: String

        /// A reference to entry `index` of the list at `uri`.
        public init(index: UInt64, uri: String) {
            self.index = index
            self.uri = uri
        }
    }

    /// The document's docType.
    public var docType: String
    /// The validated certificate path: the document signer first, the trust anchor (IACA) last.
    public var certificatePath: [Certificate]
    /// The `status` entry of the MSO as received, when it has one: later editions of ISO/IEC
    /// 18013-5 let the issuer point there to where the document's status is published, as a map
    /// from a status mechanism to its reference (such as `status_list`).
    public var status: CBOR?
    /// The verification time.
    public var time: Date

    /// A query about the document of `docType` signed through `certificatePath`, whose MSO
    /// `status` entry is `status`, at `time`.
    public init(docType: String, certificatePath: [Certificate], status: CBOR?, time: Date) {
        self.docType = docType
        self.certificatePath = certificatePath
        self.status = status
        self.time = time
    }

    /// The Token Status List reference of ``status``, `{"status_list": {"idx": uint, "uri":
    /// tstr}}`, when it holds one of that form.
    public var statusListReference: StatusListReference? {
        guard case .map(let status)? = status, case .map(let reference)? = status[text: "status_list"],
            case .unsignedInt(let index)? = reference[text: "idx"], case .textString(let uri)? = reference[text: "uri"]
        else { return nil }
        return StatusListReference(index: index, uri: uri)
    }
}
