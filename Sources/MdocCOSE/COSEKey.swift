import MdocCBOR
import MdocCrypto

/// `COSE_Key` for the curves ISO/IEC 18013-5 uses (RFC 9052 section 7; RFC 9053 section 7):
/// DeviceKey (9.1.2.4), EDeviceKey and EReaderKey (9.1.1.4).
///
/// EC2 keys (`kty` 2) carry `crv`, `x` and `y`; OKP keys (`kty` 1) carry `crv` and `x`; a private
/// key adds `d`. Coordinates keep their full fixed width, leading zeros included (RFC 9053
/// section 7.1.1). The encoding writes labels in the order 1, -1, -2, -3, -4, as Annex D does
/// (`{1: 2, -1: 1, -2: x, -3: y}`), followed by any other parameters that were received.
/// Decoding accepts any order and keeps other labels (`kid` 2, `alg` 3, ...) in
/// ``additionalParameters``. Point compression (a boolean `y`) is rejected.
///
/// The private scalar ``d`` is never printed: ``description`` and the mirror leave it out.
public struct COSEKey: CBORRepresentable, CustomStringConvertible, CustomReflectable {
    /// COSE key types (RFC 9053 section 7; IANA "COSE Key Types").
    public enum KeyType: Int64, Sendable, CustomStringConvertible {
        /// Octet key pair: Ed25519, Ed448, X25519, X448.
        case okp = 1
        /// Elliptic curve with x and y coordinates: P-256/384/521 and the brainpool curves.
        case ec2 = 2

        /// The IANA name, "OKP" or "EC2".
        public var description: String { self == .okp ? "OKP" : "EC2" }
    }

    /// Key parameter labels (RFC 9052 section 7.1; RFC 9053 sections 7.1, 7.2).
    public enum Label {
        /// `kty`.
        public static let keyType: Int64 = 1
        /// `crv`.
        public static let curve: Int64 = -1
        /// `x`: the x-coordinate (EC2) or the public key (OKP).
        public static let x: Int64 = -2
        /// `y`: the y-coordinate (EC2).
        public static let y: Int64 = -3
        /// `d`: the private key.
        public static let d: Int64 = -4
    }

    /// The key type, which the curve decides.
    public let keyType: KeyType
    /// The curve.
    public let curve: Curve
    /// The x-coordinate (EC2) or the raw public key (OKP).
    public let x: [UInt8]
    /// The y-coordinate (EC2); `nil` for OKP.
    public let y: [UInt8]?
    /// The private scalar (EC2) or raw private key (OKP), when this is a private key.
    public let d: [UInt8]?
    /// Parameters other than `kty`, `crv`, `x`, `y` and `d`, in received order.
    public let additionalParameters: CBORMap

    /// The public COSE_Key of `publicKey`.
    public init(publicKey: PublicKey) {
        self.init(publicKey: publicKey, d: nil)
    }

    /// The private COSE_Key of `privateKey`: its public part plus `d`.
    public init(privateKey: PrivateKey) {
        self.init(publicKey: privateKey.publicKey, d: privateKey.rawRepresentation)
    }

    private init(publicKey: PublicKey, d: [UInt8]?) {
        curve = publicKey.curve
        if let coordinates = publicKey.coordinates {
            keyType = .ec2
            x = coordinates.x
            y = coordinates.y
        } else {
            keyType = .okp
            x = publicKey.rawRepresentation
            y = nil
        }
        self.d = d
        additionalParameters = CBORMap()
    }

    /// Reads a COSE_Key map, checking that `kty` matches the curve and that every coordinate
    /// has the curve's width.
    public init(cbor: CBOR, at path: CBORPath) throws(CBORError) {
        // Paths below are built only for an error.
        let map = try cbor.map(at: path)
        let keyTypeValue = try map.required(int: Label.keyType, at: path).int(at: path.appending(intKey: Label.keyType))
        guard let keyType = KeyType(rawValue: keyTypeValue) else {
            throw CBORError(
                .invalidValue, "unsupported key type \(keyTypeValue) (expected 1 OKP or 2 EC2)", path: path.appending(intKey: Label.keyType))
        }
        let curveValue = try map.required(int: Label.curve, at: path).int(at: path.appending(intKey: Label.curve))
        guard let curve = Curve(coseIdentifier: curveValue) else {
            throw CBORError(.invalidValue, "unsupported curve \(curveValue)", path: path.appending(intKey: Label.curve))
        }
        guard curve.isWeierstrass == (keyType == .ec2) else {
            throw CBORError(.invalidValue, "curve \(curve) is not used with key type \(keyType)", path: path.appending(intKey: Label.curve))
        }
        let width = curve.coordinateByteCount
        let x = try Self.fixedWidth(map, Label.x, width, "x", at: path)
        var y: [UInt8]?
        if keyType == .ec2 {
            if case .boolean = try map.required(int: Label.y, at: path) {
                throw CBORError(.invalidValue, "point compression (a boolean y) is not supported", path: path.appending(intKey: Label.y))
            }
            y = try Self.fixedWidth(map, Label.y, width, "y", at: path)
        } else if map[int: Label.y] != nil {
            throw CBORError(.invalidValue, "an OKP key has no y", path: path.appending(intKey: Label.y))
        }
        let d = map[int: Label.d] == nil ? nil : try Self.fixedWidth(map, Label.d, width, "d", at: path)
        self.keyType = keyType
        self.curve = curve
        self.x = x
        self.y = y
        self.d = d
        self.additionalParameters = CBORMap(map.entries.filter { entry in
            switch entry.key.int64Value {
            case Label.keyType, Label.curve, Label.x, Label.y, Label.d: return false
            default: return true
            }
        })
    }

    /// `{1: kty, -1: crv, -2: x, -3: y, -4: d, ...}` in that order.
    public var cbor: CBOR {
        var map = CBORMap()
        map.append(CBOR(Label.keyType), CBOR(keyType.rawValue))
        map.append(CBOR(Label.curve), CBOR(curve.coseIdentifier))
        map.append(CBOR(Label.x), .byteString(x))
        if let y { map.append(CBOR(Label.y), .byteString(y)) }
        if let d { map.append(CBOR(Label.d), .byteString(d)) }
        map.entries += additionalParameters.entries
        return .map(map)
    }

    /// The same key without `d`.
    public var publicOnly: COSEKey {
        COSEKey(keyType: keyType, curve: curve, x: x, y: y, d: nil, additionalParameters: additionalParameters)
    }

    /// The public key, validated on its curve.
    public func publicKey() throws(CryptoError) -> PublicKey {
        if let y {
            return try PublicKey(x: x, y: y, curve: curve)
        }
        return try PublicKey(rawRepresentation: x, curve: curve)
    }

    /// Calls `body` with ``publicKey()``, held for a Weierstrass key given by its coordinates in
    /// an OpenSSL key object reused for the next such key (``PublicKey/withPublicKey(x:y:curve:_:)``):
    /// for a key used once and dropped, such as the MSO deviceKey of a document being verified.
    /// The checks and errors are those of ``publicKey()``.
    package func withPublicKey<Result>(_ body: (PublicKey) -> Result) throws(CryptoError) -> Result {
        guard let y, curve.isWeierstrass else { return body(try publicKey()) }
        return try PublicKey.withPublicKey(x: x, y: y, curve: curve, body)
    }

    /// The private key; throws `CryptoError.Code.invalidKey` when there is no `d` or when `d`
    /// does not belong to `x` (and `y`).
    public func privateKey() throws(CryptoError) -> PrivateKey {
        guard let d else {
            throw CryptoError(.invalidKey, "the COSE_Key has no private part (d)")
        }
        let key = try PrivateKey(rawRepresentation: d, curve: curve)
        guard key.publicKey == (try publicKey()) else {
            throw CryptoError(.invalidKey, "the COSE_Key's d does not match its public part")
        }
        return key
    }

    /// A summary without the private part.
    public var description: String {
        var text = "COSEKey(\(keyType), \(curve), x: \(Hex.encode(x))"
        if let y { text += ", y: \(Hex.encode(y))" }
        if d != nil { text += ", d: <redacted>" }
        return text + ")"
    }

    /// The public fields only, so `dump` and debuggers never show `d`.
    public var customMirror: Mirror {
        Mirror(self, children: ["keyType": keyType, "curve": curve, "x": x, "y": y as Any, "hasPrivateKey": d != nil])
    }

    private init(keyType: KeyType, curve: Curve, x: [UInt8], y: [UInt8]?, d: [UInt8]?, additionalParameters: CBORMap) {
        self.keyType = keyType
        self.curve = curve
        self.x = x
        self.y = y
        self.d = d
        self.additionalParameters = additionalParameters
    }

    private static func fixedWidth(_ map: CBORMap, _ label: Int64, _ width: Int, _ name: String, at path: CBORPath) throws(CBORError) -> [UInt8] {
        let bytes = try map.required(int: label, at: path).bytes(at: path.appending(intKey: label))
        guard bytes.count == width else {
            throw CBORError(.invalidValue, "\(name) is \(bytes.count) bytes, the curve needs \(width)", path: path.appending(intKey: label))
        }
        return bytes
    }
}
