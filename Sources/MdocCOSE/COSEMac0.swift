import MdocCBOR
import MdocCrypto

/// `COSE_Mac0`: a message MACed with a key the recipient already holds (RFC 9052 section 6.2),
/// the form of DeviceMac (ISO/IEC 18013-5 9.1.3.5), with HMAC 256/256 under EMacKey.
///
/// ```
/// COSE_Mac0 = [ protected : bstr .cbor header_map / bstr .size 0,
///               unprotected : header_map, payload : bstr / nil, tag : bstr ]
/// ```
///
/// Tag 17 is accepted on input; output is untagged, as 18013-5 carries COSE_Mac0. The protected
/// header stays the byte string that was received.
public struct COSEMac0: CBORRepresentable, Hashable {
    /// The COSE_Mac0 tag (RFC 9052 section 2).
    public static let tag: UInt64 = 17
    /// The MAC_structure context string for COSE_Mac0 (RFC 9052 section 6.3).
    public static let context = "MAC0"

    /// Both header buckets.
    public let headers: COSEHeaders
    /// The payload, or `nil` when it is detached (sent as `null`, RFC 9052 section 6.2). A
    /// received payload is a view of the message it came in (`CBORBytes`), which it keeps alive.
    public var payload: CBORBytes?
    /// The MAC tag.
    public var tag: [UInt8]

    /// A message from its parts.
    public init(headers: COSEHeaders, payload: CBORBytes?, tag: [UInt8]) {
        self.headers = headers
        self.payload = payload
        self.tag = tag
    }

    /// Reads `[protected, unprotected, payload, tag]`, optionally inside tag 17.
    public init(cbor: CBOR, at path: CBORPath) throws(CBORError) {
        let elements = try COSEStructure.elements(of: cbor, tag: Self.tag, name: "COSE_Mac0", at: path)
        self.headers = elements.headers
        self.payload = elements.payload
        self.tag = try elements.last.bytes(at: path.appending(index: 3))
    }

    /// Reads an untagged COSE_Mac0 nested `depth` containers deep straight from the bytes: the
    /// message ``init(cbor:at:)`` gives for it, or `nil` for any other form, which decoding it
    /// then gives or rejects with its error (see `CBORHeadReader`).
    package static func read(_ reader: inout CBORHeadReader, depth: Int) -> COSEMac0? {
        guard let elements = COSEStructure.read(&reader, depth: depth) else { return nil }
        return COSEMac0(headers: elements.headers, payload: elements.payload, tag: Array(elements.last))
    }

    /// The untagged array `[protected, unprotected, payload / null, tag]`.
    public var cbor: CBOR {
        .array([.byteString(headers.protectedBytes), .map(headers.unprotected), payload.map { .byteString($0) } ?? .null, .byteString(tag)])
    }

    /// The protected header byte string exactly as received.
    public var protectedHeaderBytes: [UInt8] { headers.protectedBytes }
    /// The protected header map.
    public var protectedHeaders: CBORMap { headers.protected }
    /// The unprotected header map.
    public var unprotectedHeaders: CBORMap { headers.unprotected }
    /// The protected `alg` (ISO/IEC 18013-5 9.1.3.5 requires HMAC 256/256), when supported.
    public var algorithm: COSEAlgorithm? { headers.algorithm }

    /// MACs `payload` with HMAC 256/256 under `key` (RFC 9052 section 6.3; ISO/IEC 18013-5
    /// 9.1.3.5). The protected header holds `alg` only (`h'a10105'`); the unprotected header is
    /// empty. With `detached`, the payload is MACed but sent as `null`.
    public static func authenticate(payload: [UInt8], detached: Bool, key: SymmetricKey, externalAAD: [UInt8] = []) -> COSEMac0 {
        let headers = COSEHeaders(algorithm: .hmac256)
        let payload = CBORBytes(payload)
        let message = COSEStructure.toBeAuthenticated(context: context, protectedBytes: headers.protectedBytes,
                                                      externalAAD: externalAAD, payload: payload)
        let tag = HMACSHA256.authenticationCode(for: message, key: key)
        return COSEMac0(headers: headers, payload: detached ? nil : payload, tag: tag)
    }

    /// The encoded MAC_structure `["MAC0", protected, external_aad, payload]` (RFC 9052
    /// section 6.3), built from the exact protected header bytes and payload bytes. The payload is
    /// the attached one when present, else `detachedPayload` (empty when both are nil).
    public func toBeMACed(detachedPayload: [UInt8]? = nil, externalAAD: [UInt8] = []) -> [UInt8] {
        COSEStructure.toBeAuthenticated(context: Self.context, protectedBytes: headers.protectedBytes,
                                        externalAAD: externalAAD, payload: payload ?? detachedPayload.map { CBORBytes($0) } ?? [])
    }

    /// `true` when the tag verifies under `key`, compared in constant time (RFC 9052 section 6.3).
    ///
    /// `false` also when the protected `alg` is not HMAC 256/256, or when the payload is
    /// ambiguous: attached and also given as `detachedPayload`, or detached and not given.
    public func isValidTag(key: SymmetricKey, detachedPayload: [UInt8]? = nil, externalAAD: [UInt8] = []) -> Bool {
        guard algorithm == .hmac256 else { return false }
        guard (payload == nil) != (detachedPayload == nil) else { return false }
        let message = toBeMACed(detachedPayload: detachedPayload, externalAAD: externalAAD)
        return HMACSHA256.isValidAuthenticationCode(tag, for: message, key: key)
    }
}
