import MdocCBOR

/// The protected and unprotected header buckets of a COSE message (RFC 9052 section 3), with the
/// header parameters ISO/IEC 18013-5 reads: `alg`, `kid` and `x5chain` (9.1.2.4, 9.1.3.6, 9.1.4).
///
/// The protected bucket is kept as the exact byte string that was received
/// (``protectedBytes``): the signature and MAC cover those bytes, never a re-encoding
/// (RFC 9052 section 4.4). An empty protected bucket is the empty byte string `h''`
/// (RFC 9052 section 3); a received `h'a0'` is kept as it is.
public struct COSEHeaders: Sendable, Hashable {
    /// Header parameter labels (RFC 9052 section 3.1; RFC 9360 section 2).
    public enum Label {
        /// `alg`: the algorithm of the message.
        public static let algorithm: Int64 = 1
        /// `crit`: labels the recipient must understand (RFC 9052 section 3.1).
        public static let critical: Int64 = 2
        /// `kid`: key identifier.
        public static let keyIdentifier: Int64 = 4
        /// `typ`: the media type of the whole COSE message (RFC 9596 section 2), which a Status
        /// List Token carries protected (draft-ietf-oauth-status-list section 5.2).
        public static let type: Int64 = 16
        /// `x5chain`: DER certificates, leaf first (RFC 9360 section 2; ISO/IEC 18013-5 9.1.2.4).
        public static let x5chain: Int64 = 33
    }

    /// The most certificates an `x5chain` may carry. ISO/IEC 18013-5 chains are two or three
    /// certificates (IACA or reader root, optional intermediate, leaf); this bound keeps a hostile
    /// header from handing the chain validator an arbitrarily long list.
    public static let maximumX5ChainLength = 8

    /// The labels this toolkit processes, which a `crit` parameter may therefore name.
    static let understoodLabels: Set<Int64> = [Label.algorithm, Label.keyIdentifier, Label.type, Label.x5chain]

    /// The protected bucket exactly as it was received (the content of the byte string), or as it
    /// was encoded when built.
    public let protectedBytes: [UInt8]
    /// The protected bucket decoded from ``protectedBytes``.
    public let protected: CBORMap
    /// The unprotected bucket.
    public let unprotected: CBORMap
    /// The `x5chain` certificates (DER, leaf first) from either bucket; empty when absent.
    public let x5chain: [[UInt8]]

    /// Interprets received buckets: `protectedBytes` is the content of the protected byte string,
    /// found at `protectedPath`; `unprotected` the map found at `unprotectedPath` (the paths
    /// default to elements 0 and 1 of a top-level COSE message).
    ///
    /// Checks RFC 9052 section 3: labels are integers or text, no label is in both buckets, `alg`
    /// is an integer or text, `crit` sits in the protected bucket and names only labels this
    /// toolkit understands; and RFC 9360: `x5chain` is one byte string or a non-empty array of them.
    public init(protectedBytes: [UInt8], protectedPath: CBORPath = CBORPath.root.appending(index: 0),
                unprotected: CBORMap, unprotectedPath: CBORPath = CBORPath.root.appending(index: 1)) throws(CBORError) {
        let protected: CBORMap
        if protectedBytes.isEmpty {
            protected = CBORMap()
        } else {
            let item: CBOR
            do {
                item = try CBOR.decode(protectedBytes)
            } catch {
                throw error.prefixed(by: protectedPath)
            }
            guard case .map(let map) = item else {
                throw CBORError(.unexpectedType, "the protected header must encode a map, found \(item.kindName)", path: protectedPath)
            }
            protected = map
        }
        try Self.checkLabels(protected, at: protectedPath)
        try Self.checkLabels(unprotected, at: unprotectedPath)
        for entry in unprotected.entries where protected[entry.key] != nil {
            throw CBORError(.invalidValue, "header label \(Self.labelText(entry.key)) is in both the protected and the unprotected header", path: unprotectedPath)
        }
        if let alg = protected[int: Label.algorithm] ?? unprotected[int: Label.algorithm] {
            switch alg {
            case .unsignedInt, .negativeInt, .textString: break
            default:
                let path = (protected[int: Label.algorithm] != nil ? protectedPath : unprotectedPath).appending(intKey: Label.algorithm)
                throw alg.mismatch("an integer or a text string (alg)", at: path)
            }
        }
        try Self.checkCritical(protected: protected, protectedPath: protectedPath, unprotected: unprotected, unprotectedPath: unprotectedPath)
        if let chain = protected[int: Label.x5chain] {
            self.x5chain = try Self.certificates(chain, at: protectedPath.appending(intKey: Label.x5chain))
        } else if let chain = unprotected[int: Label.x5chain] {
            self.x5chain = try Self.certificates(chain, at: unprotectedPath.appending(intKey: Label.x5chain))
        } else {
            self.x5chain = []
        }
        self.protectedBytes = protectedBytes
        self.protected = protected
        self.unprotected = unprotected
    }

    /// Headers whose protected bucket holds only `alg`, encoded deterministically as
    /// ISO/IEC 18013-5 writes it (`h'a10126'` for ES256, `h'a10105'` for HMAC 256/256), and whose
    /// unprotected bucket is empty.
    init(algorithm: COSEAlgorithm) {
        let protected = CBORMap([.init(key: CBOR(Label.algorithm), value: CBOR(algorithm.rawValue))])
        self.protectedBytes = CBOR.map(protected).encoded()
        self.protected = protected
        self.unprotected = CBORMap()
        self.x5chain = []
    }

    /// Headers with only `alg` protected and `unprotected` checked as a received bucket would be.
    init(algorithm: COSEAlgorithm, unprotected: CBORMap) throws(CBORError) {
        try self.init(protectedBytes: COSEHeaders(algorithm: algorithm).protectedBytes, unprotected: unprotected)
    }

    /// The `alg` value of the protected bucket when it is one of ``COSEAlgorithm``; `nil` when
    /// absent, unprotected or not supported. ISO/IEC 18013-5 requires `alg` to be protected.
    public var algorithm: COSEAlgorithm? {
        guard let value = protected[int: Label.algorithm]?.int64Value else { return nil }
        return COSEAlgorithm(rawValue: value)
    }

    /// The `kid` value from either bucket, when it is a byte string.
    public var keyIdentifier: [UInt8]? {
        (protected[int: Label.keyIdentifier] ?? unprotected[int: Label.keyIdentifier])?.bytesValue
    }

    /// The `x5chain` value for `certificates` as RFC 9360 section 2 writes it: one byte string for
    /// a single certificate, an array of byte strings for more.
    public static func x5chainValue(_ certificates: [[UInt8]]) -> CBOR {
        if certificates.count == 1, let only = certificates.first {
            return .byteString(only)
        }
        return .array(certificates.map { .byteString($0) })
    }

    private static func checkLabels(_ map: CBORMap, at path: CBORPath) throws(CBORError) {
        for (index, entry) in map.entries.enumerated() {
            switch entry.key {
            case .unsignedInt, .negativeInt, .textString: continue
            default: throw entry.key.mismatch("an integer or text header label", at: path.appending(index: index))
            }
        }
    }

    private static func checkCritical(protected: CBORMap, protectedPath: CBORPath, unprotected: CBORMap, unprotectedPath: CBORPath) throws(CBORError) {
        if unprotected[int: Label.critical] != nil {
            throw CBORError(.invalidValue, "crit must be in the protected header", path: unprotectedPath.appending(intKey: Label.critical))
        }
        guard let crit = protected[int: Label.critical] else { return }
        let path = protectedPath.appending(intKey: Label.critical)
        let labels = try crit.array(at: path)
        if labels.isEmpty {
            throw CBORError(.invalidValue, "crit must name at least one label", path: path)
        }
        for (index, label) in labels.enumerated() {
            guard let value = label.int64Value, understoodLabels.contains(value) else {
                throw CBORError(.invalidValue, "critical header label \(labelText(label)) is not understood", path: path.appending(index: index))
            }
            if protected[label] == nil {
                throw CBORError(.missingValue, "critical header label \(value) is not in the protected header", path: path.appending(index: index))
            }
        }
    }

    /// The certificates of the `x5chain` value found at `path`, which is built only for an error.
    private static func certificates(_ value: CBOR, at path: @autoclosure () -> CBORPath) throws(CBORError) -> [[UInt8]] {
        switch value {
        case .byteString(let certificate):
            return [Array(certificate)]
        case .array(let items):
            if items.isEmpty {
                throw CBORError(.invalidValue, "x5chain is an empty array", path: path())
            }
            if items.count > maximumX5ChainLength {
                throw CBORError(.itemCountLimitExceeded, "x5chain holds \(items.count) certificates, more than \(maximumX5ChainLength)", path: path())
            }
            var chain: [[UInt8]] = []
            for (index, item) in items.enumerated() {
                chain.append(try item.bytes(at: path().appending(index: index)))
            }
            return chain
        default:
            throw value.mismatch("a byte string or an array of byte strings (x5chain)", at: path())
        }
    }

    private static func labelText(_ label: CBOR) -> String {
        if let value = label.int64Value { return String(value) }
        if let text = label.textValue { return "\"\(text)\"" }
        return label.kindName
    }
}
