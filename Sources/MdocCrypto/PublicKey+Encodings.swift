import COpenSSL

/// Public key encodings: SEC1 points, coordinates, raw OKP keys, SubjectPublicKeyInfo.
extension PublicKey {
    /// The largest PEM or DER input the key decoders accept: far above any key on an 18013-5
    /// curve (a P-521 SubjectPublicKeyInfo is 158 bytes), and it bounds work on untrusted input.
    public static let maximumEncodedByteCount = 65_536

    /// A Weierstrass public key from its SEC1 encoding, uncompressed (`04‖x‖y`) or compressed
    /// (`02‖x` / `03‖x`) (SEC 1 v2 section 2.3.4; the ANSI X9.63 form ISO/IEC 18013-5 9.1.5.2
    /// refers to).
    ///
    /// Throws `.invalidKey` for a wrong prefix or length, `.invalidPoint` for the point at infinity
    /// or a point that is not on `curve`, and `.unsupportedAlgorithm` for a curve that is not a
    /// Weierstrass curve.
    public init(x963Representation: [UInt8], curve: Curve) throws(CryptoError) {
        try Self.checkPointEncoding(x963Representation, curve: curve)
        self.init(key: try EVPKey.weierstrassPublicKey(point: x963Representation, curve: curve), madeOn: curve)
    }

    /// Throws what ``init(x963Representation:curve:)`` throws for an encoding it refuses before
    /// OpenSSL decodes the point: a curve that is not a Weierstrass curve, a wrong prefix or
    /// length, the point at infinity.
    static func checkPointEncoding(_ x963Representation: [UInt8], curve: Curve) throws(CryptoError) {
        guard curve.isWeierstrass else {
            throw CryptoError(.unsupportedAlgorithm, "a SEC1 point encoding is defined only for Weierstrass curves, not \(curve)")
        }
        let coordinate = curve.coordinateByteCount
        switch x963Representation.first {
        case 0x04?:
            guard x963Representation.count == 1 + 2 * coordinate else {
                throw CryptoError(.invalidKey, "an uncompressed \(curve) point has \(1 + 2 * coordinate) bytes, not \(x963Representation.count)")
            }
        case 0x02?, 0x03?:
            guard x963Representation.count == 1 + coordinate else {
                throw CryptoError(.invalidKey, "a compressed \(curve) point has \(1 + coordinate) bytes, not \(x963Representation.count)")
            }
        case 0x00?:
            throw CryptoError(.invalidPoint, "the \(curve) public key is the point at infinity")
        case let prefix?:
            throw CryptoError(.invalidKey, "a SEC1 point starts with 02, 03 or 04, not \(Self.hex(prefix))")
        case nil:
            throw CryptoError(.invalidKey, "the SEC1 point encoding is empty")
        }
    }

    /// A Weierstrass public key from its affine coordinates, each exactly `curve.coordinateByteCount`
    /// big-endian bytes (RFC 9053 section 7.1.1: leading zeros are kept).
    public init(x: [UInt8], y: [UInt8], curve: Curve) throws(CryptoError) {
        try self.init(x963Representation: Self.uncompressedPoint(x: x, y: y, curve: curve), curve: curve)
    }

    /// The SEC1 uncompressed encoding `04‖x‖y` of affine coordinates, each exactly
    /// `curve.coordinateByteCount` bytes (else `.invalidKey`).
    static func uncompressedPoint(x: [UInt8], y: [UInt8], curve: Curve) throws(CryptoError) -> [UInt8] {
        let coordinate = curve.coordinateByteCount
        guard x.count == coordinate, y.count == coordinate else {
            throw CryptoError(.invalidKey, "\(curve) coordinates have \(coordinate) bytes each, not \(x.count) and \(y.count)")
        }
        var point: [UInt8] = [0x04]
        point.reserveCapacity(1 + 2 * coordinate)
        point += x
        point += y
        return point
    }

    /// A public key from its raw encoding: the key itself for X25519, X448, Ed25519 and Ed448
    /// (RFC 7748 section 5, RFC 8032 section 5.1.2 and 5.2.2), `x‖y` for Weierstrass curves.
    public init(rawRepresentation: [UInt8], curve: Curve) throws(CryptoError) {
        if curve.isWeierstrass {
            guard rawRepresentation.count == 2 * curve.coordinateByteCount else {
                throw CryptoError(.invalidKey, "a raw \(curve) public key (x‖y) has \(2 * curve.coordinateByteCount) bytes, not \(rawRepresentation.count)")
            }
            try self.init(x963Representation: [0x04] + rawRepresentation, curve: curve)
            return
        }
        guard rawRepresentation.count == curve.coordinateByteCount else {
            throw CryptoError(.invalidKey, "a raw \(curve) public key has \(curve.coordinateByteCount) bytes, not \(rawRepresentation.count)")
        }
        try self.init(key: EVPKey.octetKey(raw: rawRepresentation, curve: curve, isPrivate: false))
    }

    /// A public key from a DER SubjectPublicKeyInfo (RFC 5280 section 4.1.2.7; RFC 5480 for
    /// Weierstrass keys, RFC 8410 for the others). The whole input must be the one structure.
    public init(derRepresentation: [UInt8]) throws(CryptoError) {
        guard derRepresentation.count <= Self.maximumEncodedByteCount else {
            throw CryptoError(.invalidKey, "the DER public key has \(derRepresentation.count) bytes, more than the limit of \(Self.maximumEncodedByteCount)")
        }
        let decoded: OpaquePointer? = derRepresentation.withUnsafeBufferPointer { buffer in
            guard let start = buffer.baseAddress else { return nil }
            var cursor: UnsafePointer<UInt8>? = start
            guard let key = d2i_PUBKEY(nil, &cursor, buffer.count) else { return nil }
            guard cursor == start + buffer.count else {
                EVP_PKEY_free(key)
                return nil
            }
            return key
        }
        guard let decoded else {
            throw .openSSL(.invalidKey, "the DER bytes are not exactly one SubjectPublicKeyInfo")
        }
        try self.init(key: EVPKey(takingOwnershipOf: decoded))
    }

    /// A public key from a PEM `PUBLIC KEY` block (RFC 7468 section 13); text before the block is
    /// ignored.
    public init(pemRepresentation: String) throws(CryptoError) {
        let bytes = Array(pemRepresentation.utf8)
        guard bytes.count <= Self.maximumEncodedByteCount else {
            throw CryptoError(.invalidKey, "the PEM public key has \(bytes.count) bytes, more than the limit of \(Self.maximumEncodedByteCount)")
        }
        guard let decoded = MemoryBIO.reading(bytes, { PEM_read_bio_PUBKEY($0, nil, nil, nil) }) ?? nil else {
            throw .openSSL(.invalidKey, "the text holds no PEM PUBLIC KEY block that decodes")
        }
        try self.init(key: EVPKey(takingOwnershipOf: decoded))
    }

    /// The affine coordinates, each left-padded to `curve.coordinateByteCount` bytes; `nil` for
    /// curves other than Weierstrass curves (and if OpenSSL fails internally).
    public var coordinates: (x: [UInt8], y: [UInt8])? {
        guard curve.isWeierstrass else { return nil }
        // The encoded point in one query; a query of each coordinate converts the point to
        // affine form again (a field inversion each), which keys made by OpenSSL pay every time.
        if let point = uncompressedPoint {
            let width = curve.coordinateByteCount
            return (Array(point[1...width]), Array(point[(1 + width)...]))
        }
        guard let x = bigNumberParameter(OSSL_PKEY_PARAM_EC_PUB_X),
              let y = bigNumberParameter(OSSL_PKEY_PARAM_EC_PUB_Y)
        else { return nil }
        return (x, y)
    }

    /// `04‖x‖y` as OpenSSL encodes the key's point, when it gives that form (a provider may
    /// give none, or the compressed form for a key it was given compressed).
    private var uncompressedPoint: [UInt8]? {
        let capacity = 1 + 2 * curve.coordinateByteCount
        var point = [UInt8](repeating: 0, count: capacity)
        var length = 0
        guard EVP_PKEY_get_octet_string_param(key.pointer, OSSL_PKEY_PARAM_PUB_KEY, &point, capacity, &length) == 1,
              length == capacity, point[0] == 0x04
        else {
            ERR_clear_error()
            return nil
        }
        return point
    }

    /// The uncompressed SEC1 point `04‖x‖y` for Weierstrass curves (SEC 1 v2 section 2.3.3); for
    /// the other curves, the raw key (they have no SEC1 form). Empty only if OpenSSL fails
    /// internally.
    public var x963Representation: [UInt8] {
        guard curve.isWeierstrass else { return rawRepresentation }
        guard let (x, y) = coordinates else { return [] }
        return [0x04] + x + y
    }

    /// The raw key for X25519, X448, Ed25519 and Ed448 (RFC 7748, RFC 8032); `x‖y` for Weierstrass
    /// curves. Empty only if OpenSSL fails internally.
    public var rawRepresentation: [UInt8] {
        if curve.isWeierstrass {
            guard let (x, y) = coordinates else { return [] }
            return x + y
        }
        var raw = [UInt8](repeating: 0, count: curve.coordinateByteCount)
        var length = raw.count
        guard EVP_PKEY_get_raw_public_key(key.pointer, &raw, &length) == 1, length == raw.count else {
            ERR_clear_error()
            return []
        }
        return raw
    }

    /// The DER SubjectPublicKeyInfo (RFC 5280 section 4.1.2.7; named-curve parameters for
    /// Weierstrass keys, RFC 5480 section 2.1.1). Empty only if OpenSSL fails internally.
    public var derRepresentation: [UInt8] {
        let length = i2d_PUBKEY(key.pointer, nil)
        guard length > 0 else {
            ERR_clear_error()
            return []
        }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return i2d_PUBKEY(key.pointer, &cursor)
        }
        guard written == length else {
            ERR_clear_error()
            return []
        }
        return der
    }

    /// The SubjectPublicKeyInfo as a PEM `PUBLIC KEY` block (RFC 7468 section 13). Empty only if
    /// OpenSSL fails internally.
    public var pemRepresentation: String {
        guard let pem = MemoryBIO.written(secure: false, { PEM_write_bio_PUBKEY($0, key.pointer) == 1 }) else {
            ERR_clear_error()
            return ""
        }
        return String(decoding: pem, as: UTF8.self)
    }

    /// A big-number key parameter as `curve.coordinateByteCount` big-endian bytes.
    private func bigNumberParameter(_ name: String) -> [UInt8]? {
        var number: OpaquePointer?
        guard EVP_PKEY_get_bn_param(key.pointer, name, &number) == 1, let number else {
            ERR_clear_error()
            return nil
        }
        defer { BN_free(number) }
        let width = Int32(curve.coordinateByteCount)
        var bytes = [UInt8](repeating: 0, count: Int(width))
        guard BN_bn2binpad(number, &bytes, width) == width else {
            ERR_clear_error()
            return nil
        }
        return bytes
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16)
        return digits.count == 1 ? "0" + digits : digits
    }
}

/// Two public keys are equal when they are on the same curve and encode the same point or key.
extension PublicKey: Equatable {
    public static func == (lhs: PublicKey, rhs: PublicKey) -> Bool {
        lhs.curve == rhs.curve && lhs.x963Representation == rhs.x963Representation
    }
}

extension PublicKey {
    /// Calls `body` with the public key ``init(x:y:curve:)`` makes of these coordinates, held in
    /// an OpenSSL key object lent for the call by a pool that reuses it for the next key on the
    /// curve: for a key used once and then dropped, such as the MSO deviceKey of a document
    /// being verified (ISO/IEC 18013-5 9.1.3). The key checks and errors are those of
    /// ``init(x:y:curve:)``. A key `body` keeps beyond the call stays as it is; its object is
    /// then not reused.
    package static func withPublicKey<Result>(
        x: [UInt8], y: [UInt8], curve: Curve, _ body: (PublicKey) -> Result
    ) throws(CryptoError) -> Result {
        try withPublicKey(x: x, y: y, curve: curve, from: .shared, body)
    }

    /// ``withPublicKey(x:y:curve:_:)`` with the key objects of `pool`.
    static func withPublicKey<Result>(
        x: [UInt8], y: [UInt8], curve: Curve, from pool: ECKeyObjectPool, _ body: (PublicKey) -> Result
    ) throws(CryptoError) -> Result {
        let point = try uncompressedPoint(x: x, y: y, curve: curve)
        try checkPointEncoding(point, curve: curve)
        var object = try pool.take(point: point, curve: curve)
        let result = lend(object, on: curve, body)
        pool.giveBack(&object, curve: curve)
        return result
    }

    /// `body`'s result for the public key in `object`, whose reference ends with this call
    /// unless `body` keeps the key.
    private static func lend<Result>(_ object: EVPKey, on curve: Curve, _ body: (PublicKey) -> Result) -> Result {
        body(PublicKey(key: object, madeOn: curve))
    }
}
