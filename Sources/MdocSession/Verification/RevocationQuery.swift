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
        /// The certificate (DER) whose key signed the top-level certificate of the token's
        /// `x5chain`, when the MSO names one (`certificate`, 18013-5 second edition 12.3.6.2):
        /// the trust point of the token's signer in place of the document's IACA.
        public var certificate: [UInt8]?

        /// A reference to entry `index` of the list at `uri`.
        public init(index: UInt64, uri: String) {
            self.index = index
            self.uri = uri
        }

        /// The reference as the MSO holds it: `{"idx": uint, "uri": tstr, ? "certificate": bstr}`.
        public var cbor: CBOR {
            var map = CBORMap()
            map.append("idx", .unsignedInt(index))
            map.append("uri", .textString(uri))
            if let certificate { map.append("certificate", .byteString(certificate)) }
            return .map(map)
        }
    }

    /// A reference into an identifier list (ISO/IEC 18013-5 second edition): the document is
    /// revoked when the list published at ``uri`` holds ``identifier``.
    public struct IdentifierListReference: Sendable, Hashable {
        /// The document's identifier in the list (`id`).
        public var identifier: [UInt8]
        /// Where the identifier list token is published (`uri`).
        public var uri: String
        /// The trust point of the token's signer, as ``StatusListReference/certificate``.
        public var certificate: [UInt8]?

        /// A reference to `identifier` in the list at `uri`, whose signer chains to
        /// `certificate` when given.
        public init(identifier: [UInt8], uri: String, certificate: [UInt8]? = nil) {
            self.identifier = identifier
            self.uri = uri
            self.certificate = certificate
        }

        /// The reference as the MSO holds it: `{"id": bstr, "uri": tstr, ? "certificate": bstr}`.
        public var cbor: CBOR {
            var map = CBORMap()
            map.append("id", .byteString(identifier))
            map.append("uri", .textString(uri))
            if let certificate { map.append("certificate", .byteString(certificate)) }
            return .map(map)
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
    /// tstr, ? "certificate": bstr}}`, when it holds one of that form.
    public var statusListReference: StatusListReference? {
        guard case .map(let status)? = status, case .map(let reference)? = status[text: "status_list"],
            case .unsignedInt(let index)? = reference[text: "idx"], case .textString(let uri)? = reference[text: "uri"]
        else { return nil }
        var statusList = StatusListReference(index: index, uri: uri)
        statusList.certificate = reference[text: "certificate"]?.bytesValue
        return statusList
    }

    /// The identifier list reference of ``status``, `{"identifier_list": {"id": bstr, "uri":
    /// tstr, ? "certificate": bstr}}`, when it holds one of that form.
    public var identifierListReference: IdentifierListReference? {
        guard case .map(let status)? = status, case .map(let reference)? = status[text: "identifier_list"],
            let identifier = reference[text: "id"]?.bytesValue, case .textString(let uri)? = reference[text: "uri"]
        else { return nil }
        return IdentifierListReference(identifier: identifier, uri: uri, certificate: reference[text: "certificate"]?.bytesValue)
    }
}
