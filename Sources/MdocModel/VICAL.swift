import MdocCBOR

/// `VICAL` (ISO/IEC 18013-5 Annex C.1.7): a provider's list of the IACA certificates a reader may
/// trust, each with the document types it may anchor, carried signed in a COSE_Sign1
/// (``SignedVICAL``).
///
/// ```
/// VICAL = {
///   "version": tstr,
///   "vicalProvider": tstr,
///   "date": tdate,
///   ? "vicalIssueID": uint,          ; monotonically increasing per provider
///   ? "nextUpdate": tdate,
///   "certificateInfos": [* CertificateInfo],
///   ? "extensions": Extensions,
///   * tstr => any                    ; RFU
/// }
/// ```
/// Keys the CDDL does not name are kept in ``additionalEntries``, in received order, and written
/// back; ``extensions`` is kept as received.
public struct VICAL: CBORRepresentable {
    /// The version this toolkit writes (Annex C.1.7).
    public static let currentVersion = "1.0"
    /// The most entries a VICAL may list here: a bound on the work an untrusted list can cause,
    /// far above the lists published (tens of IACAs).
    public static let maximumCertificateInfos = 10_000

    /// The version of the structure.
    public var version: String
    /// Who issued the list.
    public var vicalProvider: String
    /// When the list was issued.
    public var date: TDate
    /// The issue number, increasing with each list of the provider.
    public var vicalIssueID: UInt64?
    /// When the provider expects to issue the next list; after it the list is stale.
    public var nextUpdate: TDate?
    /// The IACA certificates, in received order.
    public var certificateInfos: [CertificateInfo]
    /// `Extensions = {* tstr => any}`, as received.
    public var extensions: CBORMap?
    /// Entries with keys not modelled above, in received order.
    public var additionalEntries: CBORMap

    /// Builds the structure from its parts.
    public init(
        version: String = VICAL.currentVersion, vicalProvider: String, date: TDate, vicalIssueID: UInt64? = nil,
        nextUpdate: TDate? = nil, certificateInfos: [CertificateInfo], extensions: CBORMap? = nil,
        additionalEntries: CBORMap = CBORMap()
    ) {
        self.version = version
        self.vicalProvider = vicalProvider
        self.date = date
        self.vicalIssueID = vicalIssueID
        self.nextUpdate = nextUpdate
        self.certificateInfos = certificateInfos
        self.extensions = extensions
        self.additionalEntries = additionalEntries
    }

    public init(cbor: CBOR, at path: CBORPath) throws(CBORError) {
        let map = try cbor.map(at: path)
        version = try map.required("version", at: path).text(at: path.appending(key: "version"))
        vicalProvider = try map.required("vicalProvider", at: path).text(at: path.appending(key: "vicalProvider"))
        date = try TDate(cbor: map.required("date", at: path), at: path.appending(key: "date"))
        vicalIssueID = try map[text: "vicalIssueID"].map { (value) throws(CBORError) in
            try value.uint(at: path.appending(key: "vicalIssueID"))
        }
        nextUpdate = try map[text: "nextUpdate"].map { (value) throws(CBORError) in
            try TDate(cbor: value, at: path.appending(key: "nextUpdate"))
        }
        let infosPath = path.appending(key: "certificateInfos")
        let infos = try map.required("certificateInfos", at: path).array(at: infosPath)
        guard infos.count <= Self.maximumCertificateInfos else {
            throw CBORError(
                .itemCountLimitExceeded, "the VICAL lists \(infos.count) certificates, more than the maximum \(Self.maximumCertificateInfos)",
                path: infosPath)
        }
        certificateInfos = []
        certificateInfos.reserveCapacity(infos.count)
        for (index, info) in infos.enumerated() {
            certificateInfos.append(try CertificateInfo(cbor: info, at: infosPath.appending(index: index)))
        }
        extensions = try map[text: "extensions"].map { (value) throws(CBORError) in
            try value.map(at: path.appending(key: "extensions"))
        }
        additionalEntries = map.entries(excludingText: [
            "version", "vicalProvider", "date", "vicalIssueID", "nextUpdate", "certificateInfos", "extensions",
        ])
    }

    public var cbor: CBOR {
        var map = CBORMap()
        map.append("version", .textString(version))
        map.append("vicalProvider", .textString(vicalProvider))
        map.append("date", date.cbor)
        if let vicalIssueID { map.append("vicalIssueID", .unsignedInt(vicalIssueID)) }
        if let nextUpdate { map.append("nextUpdate", nextUpdate.cbor) }
        map.append("certificateInfos", .array(certificateInfos.map(\.cbor)))
        if let extensions { map.append("extensions", .map(extensions)) }
        map.append(contentsOf: additionalEntries)
        return .map(map)
    }
}
