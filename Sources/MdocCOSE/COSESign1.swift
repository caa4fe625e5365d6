import MdocCBOR
import MdocCrypto

/// `COSE_Sign1`: a message signed by one signer (RFC 9052 section 4.2), the form of
/// IssuerAuth (ISO/IEC 18013-5 9.1.2.4), DeviceSignature (9.1.3.6) and ReaderAuth (9.1.4).
///
/// ```
/// COSE_Sign1 = [ protected : bstr .cbor header_map / bstr .size 0,
///                unprotected : header_map, payload : bstr / nil, signature : bstr ]
/// ```
///
/// Tag 18 is accepted on input; output is untagged, as 18013-5 carries COSE_Sign1. The protected
/// header stays the byte string that was received, so ``toBeSigned(detachedPayload:externalAAD:)``
/// covers exactly the signed bytes. Signatures are raw `r‖s` for ECDSA (RFC 9053 section 2.1).
public struct COSESign1: CBORRepresentable, Hashable {
    /// The COSE_Sign1 tag (RFC 9052 section 2).
    public static let tag: UInt64 = 18
    /// The Sig_structure context string for COSE_Sign1 (RFC 9052 section 4.4).
    public static let context = "Signature1"

    /// Both header buckets.
    public let headers: COSEHeaders
    /// The payload, or `nil` when it is detached (sent as `null`, RFC 9052 section 4.1). A
    /// received payload is a view of the message it came in (`CBORBytes`), which it keeps
    /// alive: the IssuerAuth payload, MobileSecurityObjectBytes, grows with the number of data
    /// elements, and the MSO decoded from it holds views of it in turn.
    public var payload: CBORBytes?
    /// The signature bytes.
    public var signature: [UInt8]

    /// A message from its parts.
    public init(headers: COSEHeaders, payload: CBORBytes?, signature: [UInt8]) {
        self.headers = headers
        self.payload = payload
        self.signature = signature
    }

    /// Reads `[protected, unprotected, payload, signature]`, optionally inside tag 18.
    public init(cbor: CBOR, at path: CBORPath) throws(CBORError) {
        let elements = try COSEStructure.elements(of: cbor, tag: Self.tag, name: "COSE_Sign1", at: path)
        self.headers = elements.headers
        self.payload = elements.payload
        self.signature = try elements.last.bytes(at: path.appending(index: 3))
    }

    /// Reads an untagged COSE_Sign1 nested `depth` containers deep straight from the bytes: the
    /// message ``init(cbor:at:)`` gives for it, or `nil` for any other form, which decoding it
    /// then gives or rejects with its error (see `CBORHeadReader`).
    package static func read(_ reader: inout CBORHeadReader, depth: Int) -> COSESign1? {
        guard let elements = COSEStructure.read(&reader, depth: depth) else { return nil }
        return COSESign1(headers: elements.headers, payload: elements.payload, signature: Array(elements.last))
    }

    /// The untagged array `[protected, unprotected, payload / null, signature]`.
    public var cbor: CBOR {
        .array([.byteString(headers.protectedBytes), .map(headers.unprotected), payload.map { .byteString($0) } ?? .null, .byteString(signature)])
    }

    /// The protected header byte string exactly as received.
    public var protectedHeaderBytes: [UInt8] { headers.protectedBytes }
    /// The protected header map.
    public var protectedHeaders: CBORMap { headers.protected }
    /// The unprotected header map.
    public var unprotectedHeaders: CBORMap { headers.unprotected }
    /// The protected `alg` (ISO/IEC 18013-5 9.1.2.4 requires it protected), when supported.
    public var algorithm: COSEAlgorithm? { headers.algorithm }
    /// The `x5chain` certificates (DER, leaf first); empty when absent.
    public var x5chain: [[UInt8]] { headers.x5chain }

    /// Signs `payload` with `key` (RFC 9052 section 4.4). The protected header holds `alg` only;
    /// `unprotectedHeaders` (for example `x5chain`, label 33) go unprotected. With `detached`,
    /// the payload is signed but sent as `null`.
    ///
    /// Throws `CryptoError.Code.unsupportedAlgorithm` for HMAC, `CryptoError.Code.curveMismatch`
    /// when the key's curve does not suit the algorithm (see ``COSEAlgorithm``), and
    /// `CryptoError.Code.invalidParameter` when `unprotectedHeaders` is not a valid header map.
    public static func sign(payload: [UInt8], detached: Bool, algorithm: COSEAlgorithm, key: PrivateKey,
                            unprotectedHeaders: CBORMap = .init(), externalAAD: [UInt8] = []) throws(CryptoError) -> COSESign1 {
        guard algorithm.isSignatureAlgorithm else {
            throw CryptoError(.unsupportedAlgorithm, "\(algorithm) is not a signature algorithm")
        }
        guard algorithm.isSuitable(for: key.curve) else {
            throw CryptoError(.curveMismatch, "a \(key.curve) key cannot sign with \(algorithm)")
        }
        let headers: COSEHeaders
        do {
            headers = try COSEHeaders(algorithm: algorithm, unprotected: unprotectedHeaders)
        } catch {
            throw CryptoError(.invalidParameter, "invalid unprotected headers: \(error)")
        }
        let payload = CBORBytes(payload)
        let toBeSigned = COSEStructure.toBeAuthenticated(context: context, protectedBytes: headers.protectedBytes,
                                                         externalAAD: externalAAD, payload: payload)
        let signature = try key.signature(for: toBeSigned, digest: algorithm.signingDigest)
        return COSESign1(headers: headers, payload: detached ? nil : payload, signature: signature)
    }

    /// The encoded Sig_structure `["Signature1", protected, external_aad, payload]`
    /// (RFC 9052 section 4.4), built from the exact protected header bytes and payload bytes. The
    /// payload is the attached one when present, else `detachedPayload` (empty when both are nil).
    public func toBeSigned(detachedPayload: [UInt8]? = nil, externalAAD: [UInt8] = []) -> [UInt8] {
        COSEStructure.toBeAuthenticated(context: Self.context, protectedBytes: headers.protectedBytes,
                                        externalAAD: externalAAD, payload: payload ?? detachedPayload.map { CBORBytes($0) } ?? [])
    }

    /// The Sig_structure of ``toBeSigned(detachedPayload:externalAAD:)`` in the two parts that
    /// make it one after the other: `prefix`, every byte before the payload's content (the heads,
    /// the context, the protected header bytes and `externalAAD`), and `payload`, the payload's
    /// bytes where they lie (the attached payload, a view of the message it came in, else
    /// `detachedPayload`, else empty). Verifying hashes the parts in turn
    /// (``isValidSignature(publicKey:detachedPayload:externalAAD:)``), so that a large payload,
    /// such as MobileSecurityObjectBytes, is never copied.
    public func toBeSignedParts(detachedPayload: [UInt8]? = nil, externalAAD: [UInt8] = []) -> (prefix: [UInt8], payload: CBORBytes) {
        let payload = self.payload ?? detachedPayload.map { CBORBytes($0) } ?? []
        let prefix = COSEStructure.toBeAuthenticatedPrefix(context: Self.context, protectedBytes: headers.protectedBytes,
                                                           externalAAD: externalAAD, payloadCount: payload.count)
        return (prefix, payload)
    }

    /// `true` when the signature verifies with `publicKey` (RFC 9052 section 4.4), over the
    /// Sig_structure's parts (``toBeSignedParts(detachedPayload:externalAAD:)``) hashed in turn.
    ///
    /// `false` also when the protected `alg` is absent or unsupported, when the key's curve does
    /// not suit it, or when the payload is ambiguous: attached and also given as
    /// `detachedPayload`, or detached and not given.
    public func isValidSignature(publicKey: PublicKey, detachedPayload: [UInt8]? = nil, externalAAD: [UInt8] = []) -> Bool {
        guard let algorithm, algorithm.isSignatureAlgorithm, algorithm.isSuitable(for: publicKey.curve) else { return false }
        guard (payload == nil) != (detachedPayload == nil) else { return false }
        let (prefix, payload) = toBeSignedParts(detachedPayload: detachedPayload, externalAAD: externalAAD)
        return prefix.withUnsafeBytes { prefix in
            payload.withUnsafeBytes { payload in
                publicKey.isValidSignature(signature, forConcatenationOf: [prefix, payload], digest: algorithm.signingDigest)
            }
        }
    }
}
