import MdocCBOR
import MdocCOSE

extension CBOR {
    /// What stands in for a private key parameter that ``redactingPrivateKeys()`` took out: a
    /// text string where the key had a byte string, so that it cannot be taken for the key.
    public static let redactedPrivateKey = CBOR.textString("private key, not shown")

    /// The item with the private parameters of every COSE_Key in it (RFC 9052 section 7)
    /// replaced by ``redactedPrivateKey``, wherever the key is, inside embedded CBOR (tag 24)
    /// too. A map whose keys are all integers, as a COSE_Key's labels are, loses `d` (-4), the
    /// private key of OKP and EC2 keys (RFC 9053 sections 7.1 and 7.2); an RSA key (`kty` 3)
    /// loses `d`, `p`, `q`, `dP`, `dQ`, `qInv` and `other` (-3 to -9, RFC 8230 section 4), and a
    /// symmetric key (`kty` 4) its `k` (-1, RFC 9053 section 6.1). Embedded CBOR that held a
    /// private key is encoded again without it, so its bytes are no longer the bytes received.
    public func redactingPrivateKeys() -> CBOR {
        redacted() ?? self
    }

    /// Whether the item holds a private key parameter that ``redactingPrivateKeys()`` replaces.
    public var holdsPrivateKey: Bool {
        redacted() != nil
    }

    /// The item without its private key parameters, or `nil` when it holds none.
    private func redacted() -> CBOR? {
        switch self {
        case .array(let items):
            let redacted = items.map { $0.redacted() }
            guard redacted.contains(where: { $0 != nil }) else { return nil }
            return .array(zip(items, redacted).map { $1 ?? $0 })
        case .map(let map):
            let privateLabels = Self.privateKeyLabels(of: map)
            var changed = false
            let entries = map.entries.map { entry -> CBORMap.Entry in
                if let label = entry.key.int64Value, privateLabels.contains(label) {
                    changed = changed || entry.value != Self.redactedPrivateKey
                    return CBORMap.Entry(key: entry.key, value: Self.redactedPrivateKey)
                }
                let key = entry.key.redacted()
                let value = entry.value.redacted()
                changed = changed || key != nil || value != nil
                return CBORMap.Entry(key: key ?? entry.key, value: value ?? entry.value)
            }
            return changed ? .map(CBORMap(entries)) : nil
        case .tagged(CBOR.Tag.encodedCBOR, .byteString(let bytes)):
            guard let embedded = try? CBOR.decode(bytes), let redacted = embedded.redacted() else { return nil }
            return .tagged(CBOR.Tag.encodedCBOR, .byteString(CBORBytes(redacted.encoded())))
        case .tagged(let tag, let content):
            return content.redacted().map { .tagged(tag, $0) }
        default:
            return nil
        }
    }

    /// The labels of `map` that hold a private key, if it is a COSE_Key: none when a key is not
    /// an integer.
    private static func privateKeyLabels(of map: CBORMap) -> [Int64] {
        guard map.entries.allSatisfy({ $0.key.int64Value != nil }) else { return [] }
        switch map[int: COSEKey.Label.keyType]?.int64Value {
        case 3: return [-3, -4, -5, -6, -7, -8, -9]
        case 4: return [COSEKey.Label.d, -1]
        default: return [COSEKey.Label.d]
        }
    }
}
