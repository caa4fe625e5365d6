import MdocCBOR
import MdocCOSE
import MdocCrypto

/// A credential's private static device key (SDeviceKey, ISO/IEC 18013-5 9.1.3) sealed with a
/// passphrase (MdocCrypto's `SealedPrivateKey`: scrypt, RFC 7914, then AES-256-GCM), for a
/// holder without a token or a TPM, so that a copy of the file presents nothing without the
/// passphrase. The associated data is the deterministic encoding (RFC 8949 section 4.2.1) of
/// the key's public COSE_Key (RFC 9052 section 7), which the file holds as `deviceKey`: a sealed
/// key moved into another credential does not open.
///
/// In a credential file it is this project's CBOR map, under the credential's
/// `"sealedDeviceKey"`:
///
/// ```
/// SealedDeviceKey = {
///   "kdf": "scrypt",
///   "N": uint,                 ; RFC 7914 CPU/memory cost, a power of two
///   "r": uint,                 ; block size
///   "p": uint,                 ; parallelization
///   "salt": bstr .size 16,
///   "nonce": bstr .size 12,    ; AES-256-GCM nonce
///   "ciphertext": bstr         ; the raw private key sealed, then the 16-byte tag
/// }
/// ```
///
/// The parameters must lie within `SealedPrivateKey.Parameters`' bounds, checked when the map
/// is read, before any scrypt work.
public struct SealedDeviceKey: CBORRepresentable, Sendable, Hashable {
    /// The `"kdf"` of the map: the only key derivation this reads and writes.
    public static let keyDerivation = "scrypt"

    /// The sealed key.
    public let sealedKey: SealedPrivateKey

    /// Wraps `sealedKey`.
    public init(_ sealedKey: SealedPrivateKey) {
        self.sealedKey = sealedKey
    }

    /// Seals `key` with `passphrase` and `parameters`, bound to its public COSE_Key.
    public init(sealing key: PrivateKey, passphrase: [UInt8], parameters: SealedPrivateKey.Parameters = .standard) throws(CryptoError) {
        sealedKey = try SealedPrivateKey(
            sealing: key, passphrase: passphrase, associatedData: Self.associatedData(for: key.publicKey), parameters: parameters)
    }

    /// Reads the map described on the type; error paths start at `path`.
    public init(cbor: CBOR, at path: CBORPath) throws(CBORError) {
        let map = try cbor.map(at: path)
        let kdf = try map.required("kdf", at: path).text(at: path.appending(key: "kdf"))
        guard kdf == Self.keyDerivation else {
            throw CBORError(.invalidValue, "kdf is not \"\(Self.keyDerivation)\"", path: path.appending(key: "kdf"))
        }
        func integer<T: FixedWidthInteger>(_ name: String, as: T.Type) throws(CBORError) -> T {
            let value = try map.required(name, at: path).uint(at: path.appending(key: name))
            guard let fitting = T(exactly: value) else {
                throw CBORError(.invalidValue, "\(name) is \(value), out of range", path: path.appending(key: name))
            }
            return fitting
        }
        let cost = try integer("N", as: UInt64.self)
        let blockSize = try integer("r", as: UInt32.self)
        let parallelization = try integer("p", as: UInt32.self)
        let parameters: SealedPrivateKey.Parameters
        do {
            parameters = try SealedPrivateKey.Parameters(cost: cost, blockSize: blockSize, parallelization: parallelization)
        } catch {
            throw CBORError(.invalidValue, error.reason, path: path)
        }
        let salt = try map.required("salt", at: path).bytes(at: path.appending(key: "salt"))
        let nonce = try map.required("nonce", at: path).bytes(at: path.appending(key: "nonce"))
        let ciphertext = try map.required("ciphertext", at: path).bytes(at: path.appending(key: "ciphertext"))
        do {
            sealedKey = try SealedPrivateKey(parameters: parameters, salt: salt, nonce: nonce, ciphertext: ciphertext)
        } catch {
            throw CBORError(.invalidValue, error.reason, path: path)
        }
    }

    /// The map described on the type, in deterministic order (RFC 8949 4.2.1).
    public var cbor: CBOR {
        var map = CBORMap()
        map.append("kdf", .textString(Self.keyDerivation))
        map.append("N", .unsignedInt(sealedKey.parameters.cost))
        map.append("r", .unsignedInt(UInt64(sealedKey.parameters.blockSize)))
        map.append("p", .unsignedInt(UInt64(sealedKey.parameters.parallelization)))
        map.append("salt", .byteString(sealedKey.salt))
        map.append("nonce", .byteString(sealedKey.nonce))
        map.append("ciphertext", .byteString(sealedKey.ciphertext))
        return CBOR.map(map).sortedDeterministically()
    }

    /// The private key whose public half is `publicKey`, opened with `passphrase`.
    ///
    /// Throws `SealedPrivateKey`'s `CryptoError`: `.authenticationFailure` ("wrong passphrase or
    /// altered sealed key") when the passphrase is wrong or the sealed key, or `publicKey`, is
    /// not what was sealed.
    public func privateKey(passphrase: [UInt8], publicKey: PublicKey) throws(CryptoError) -> PrivateKey {
        let key = try sealedKey.privateKey(passphrase: passphrase, curve: publicKey.curve, associatedData: Self.associatedData(for: publicKey))
        guard key.publicKey == publicKey else {
            throw CryptoError(.invalidKey, "the sealed key is not the private key of the credential's device key")
        }
        return key
    }

    /// The associated data bound to a sealed `publicKey`: its COSE_Key, deterministically encoded.
    public static func associatedData(for publicKey: PublicKey) -> [UInt8] {
        COSEKey(publicKey: publicKey).encoded()
    }
}
