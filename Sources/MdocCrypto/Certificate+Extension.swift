import COpenSSL

extension Certificate {
    /// One extension of a certificate (RFC 5280 section 4.1.2.9), as encoded, with OpenSSL's
    /// reading of its value where OpenSSL knows the extension.
    ///
    /// The typed readings the Annex B profiles need are ``Certificate/keyUsage``,
    /// ``Certificate/extendedKeyUsage``, ``Certificate/basicConstraints`` and the key
    /// identifiers; this lists every extension, those included, for people who inspect a
    /// certificate.
    public struct Extension: Sendable, Hashable {
        /// The extension's object identifier, dotted (e.g. `2.5.29.15`).
        public let oid: String
        /// OpenSSL's short name of the extension (e.g. `keyUsage`, `crlDistributionPoints`), or
        /// `nil` when OpenSSL does not know the OID.
        public let name: String?
        /// Whether the extension is marked critical.
        public let isCritical: Bool
        /// The extnValue octets: the DER encoding of the extension's value.
        public let value: [UInt8]
        /// OpenSSL's text of the value (`X509V3_EXT_print`), its lines joined with "; " (with " "
    /// after a line that ends in ":"), or
        /// `nil` when OpenSSL has no printer for the extension. Names and URIs in it are the
        /// certificate's, unescaped.
        public let text: String?
    }

    /// Every extension, in the order the certificate encodes them. Read on each call (the
    /// certificate is parsed once; this reads its extension list), so verification never pays
    /// for it.
    public var extensions: [Extension] {
        (0..<fields.extensionCount).compactMap { index in
            guard let entry = fields.extensionEntry(at: index) else { return nil }
            let object = X509_EXTENSION_get_object(entry)
            let nid = object.map { OBJ_obj2nid($0) } ?? NID_undef
            return Extension(
                oid: X509Fields.dottedOID(object),
                name: nid == NID_undef ? nil : OBJ_nid2sn(nid).map { String(cString: $0) },
                isCritical: X509_EXTENSION_get_critical(entry) != 0,
                value: X509Fields.bytes(X509_EXTENSION_get_data(entry).map { UnsafePointer($0) }),
                text: Self.printed(entry))
        }
    }

    /// The X.509 version: 1, 2 or 3 (RFC 5280 section 4.1.2.1; the field holds the number
    /// minus one).
    public var version: Int {
        fields.version + 1
    }

    /// OpenSSL's rendering of an extension's value, one line per printed line, joined with
    /// "; "; `nil` when OpenSSL does not know how to print it.
    private static func printed(_ entry: OpaquePointer) -> String? {
        guard let bio = BIO_new(BIO_s_mem()) else { return nil }
        defer { BIO_free(bio) }
        guard X509V3_EXT_print(bio, entry, 0, 0) == 1 else {
            ERR_clear_error()
            return nil
        }
        var data: UnsafeMutablePointer<CChar>? = nil
        let length = BIO_ctrl(bio, BIO_CTRL_INFO, 0, &data)
        guard length > 0, let data else { return "" }
        let text = data.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
            String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self)
        }
        var joined = ""
        for line in text.split(whereSeparator: \.isNewline).map({ $0.trimmed(of: " \t") }) where !line.isEmpty {
            // A line ending in ":" introduces the next one ("Full Name:" then "URI:...").
            if !joined.isEmpty { joined += joined.hasSuffix(":") ? " " : "; " }
            joined += line
        }
        return joined
    }
}

private extension Substring {
    /// The text without leading and trailing characters of `set`.
    func trimmed(of set: String) -> String {
        let drop = { (c: Character) in set.contains(c) }
        guard let start = firstIndex(where: { !drop($0) }), let end = lastIndex(where: { !drop($0) }) else { return "" }
        return String(self[start...end])
    }
}
