import COpenSSL
import COpenSSLShims

/// A private key sealed with a passphrase, for keeping a holder's software device key
/// (SDeviceKey, ISO/IEC 18013-5 9.1.3) at rest: the passphrase gives a 256-bit key through
/// scrypt (RFC 7914, OpenSSL's `EVP_KDF` "SCRYPT", memory-hard) with a random salt, and that key
/// seals the raw private key (``PrivateKey/rawRepresentation``) with AES-256-GCM (NIST SP
/// 800-38D, ``AESGCM``) under a random nonce, authenticating `associatedData` with it: the
/// caller binds the key's public half in, so that a sealed key moved next to another public key
/// does not open.
///
/// The scrypt parameters are kept with the sealed key and checked against bounds
/// (``Parameters``) before any work, so that a hostile file cannot make the reader spend
/// gigabytes of memory or minutes of CPU. The derived key lives in storage wiped when it goes,
/// and the private key's bytes are wiped once sealed or imported; the passphrase is the
/// caller's to wipe.
public struct SealedPrivateKey: Sendable, Hashable {
    /// The salt length: 16 random bytes (RFC 7914 section 2 recommends at least 16).
    public static let saltByteCount = 16

    /// The scrypt cost parameters (RFC 7914 section 2): N (``cost``, a power of two), r
    /// (``blockSize``) and p (``parallelization``), each within its named bounds, and the
    /// memory scrypt needs, 128 × r × N bytes, within ``maximumMemoryByteCount``.
    public struct Parameters: Sendable, Hashable, CustomStringConvertible {
        /// The smallest N accepted: 2^14, RFC 7914 section 2's interactive setting.
        public static let minimumCost: UInt64 = 1 << 14
        /// The largest N accepted: 2^20 (with r = 1, 128 MiB).
        public static let maximumCost: UInt64 = 1 << 20
        /// The largest r accepted.
        public static let maximumBlockSize: UInt32 = 32
        /// The largest p accepted: each lane costs as much CPU as the whole of p = 1.
        public static let maximumParallelization: UInt32 = 4
        /// The most memory scrypt may take, 128 × r × N bytes: 256 MiB, twice the default's.
        public static let maximumMemoryByteCount: UInt64 = 256 << 20
        /// N = 2^17, r = 8, p = 1: 128 MiB and about half a second on a laptop of 2025.
        public static let standard = Parameters(checkedCost: 1 << 17, blockSize: 8, parallelization: 1)

        /// N, the CPU and memory cost: a power of two.
        public let cost: UInt64
        /// r, the block size.
        public let blockSize: UInt32
        /// p, the parallelization.
        public let parallelization: UInt32

        /// The parameters N = `cost`, r = `blockSize`, p = `parallelization`; throws
        /// `.invalidParameter` naming the parameter outside its bounds.
        public init(cost: UInt64, blockSize: UInt32, parallelization: UInt32) throws(CryptoError) {
            guard cost.nonzeroBitCount == 1, (Self.minimumCost...Self.maximumCost).contains(cost) else {
                throw CryptoError(
                    .invalidParameter, "scrypt N is \(cost), not a power of two from \(Self.minimumCost) to \(Self.maximumCost)")
            }
            guard (1...Self.maximumBlockSize).contains(blockSize) else {
                throw CryptoError(.invalidParameter, "scrypt r is \(blockSize), not 1 to \(Self.maximumBlockSize)")
            }
            guard (1...Self.maximumParallelization).contains(parallelization) else {
                throw CryptoError(.invalidParameter, "scrypt p is \(parallelization), not 1 to \(Self.maximumParallelization)")
            }
            let memory = 128 * UInt64(blockSize) * cost
            guard memory <= Self.maximumMemoryByteCount else {
                throw CryptoError(
                    .invalidParameter,
                    "scrypt N = \(cost) and r = \(blockSize) take \(memory >> 20) MiB, more than the limit of \(Self.maximumMemoryByteCount >> 20) MiB")
            }
            self.init(checkedCost: cost, blockSize: blockSize, parallelization: parallelization)
        }

        private init(checkedCost cost: UInt64, blockSize: UInt32, parallelization: UInt32) {
            self.cost = cost
            self.blockSize = blockSize
            self.parallelization = parallelization
        }

        /// The memory scrypt takes with these parameters: 128 × r × N bytes.
        public var memoryByteCount: UInt64 { 128 * UInt64(blockSize) * cost }

        /// `scrypt(N=131072, r=8, p=1)`.
        public var description: String { "scrypt(N=\(cost), r=\(blockSize), p=\(parallelization))" }
    }

    /// The scrypt parameters the key was sealed with.
    public let parameters: Parameters
    /// The scrypt salt, ``saltByteCount`` bytes.
    public let salt: [UInt8]
    /// The AES-256-GCM nonce, ``AESGCM/nonceByteCount`` bytes.
    public let nonce: [UInt8]
    /// The sealed raw private key followed by the 16-byte tag.
    public let ciphertext: [UInt8]

    /// A sealed key from its stored parts; throws `.invalidParameter` for a salt, nonce or
    /// ciphertext of the wrong length (the ciphertext holds at least a tag and one byte).
    public init(parameters: Parameters, salt: [UInt8], nonce: [UInt8], ciphertext: [UInt8]) throws(CryptoError) {
        guard salt.count == Self.saltByteCount else {
            throw CryptoError(.invalidParameter, "the scrypt salt has \(salt.count) bytes, not \(Self.saltByteCount)")
        }
        guard nonce.count == AESGCM.nonceByteCount else {
            throw CryptoError(.invalidParameter, "the AES-256-GCM nonce has \(nonce.count) bytes, not \(AESGCM.nonceByteCount)")
        }
        guard ciphertext.count > AESGCM.tagByteCount else {
            throw CryptoError(.invalidParameter, "the sealed key has \(ciphertext.count) bytes, no more than its \(AESGCM.tagByteCount)-byte tag")
        }
        self.parameters = parameters
        self.salt = salt
        self.nonce = nonce
        self.ciphertext = ciphertext
    }

    /// Seals `key` with `passphrase` (not empty) under a new random salt and nonce,
    /// authenticating `associatedData`. Throws `.invalidParameter` for an empty passphrase.
    public init(
        sealing key: PrivateKey, passphrase: [UInt8], associatedData: [UInt8], parameters: Parameters = .standard
    ) throws(CryptoError) {
        let salt = try Self.randomBytes(Self.saltByteCount)
        let nonce = try Self.randomBytes(AESGCM.nonceByteCount)
        let sealingKey = try Self.deriveKey(passphrase: passphrase, salt: salt, parameters: parameters)
        var raw = key.rawRepresentation
        defer { Self.wipe(&raw) }
        let ciphertext = try AESGCM.seal(raw, key: sealingKey, nonce: nonce, authenticating: associatedData)
        try self.init(parameters: parameters, salt: salt, nonce: nonce, ciphertext: ciphertext)
    }

    /// The private key on `curve`, opened with `passphrase` and `associatedData`.
    ///
    /// Throws `.authenticationFailure` ("wrong passphrase or altered sealed key") when the tag
    /// does not verify: a wrong passphrase, or any change to the salt, nonce, ciphertext or
    /// associated data (which of them is not known); `.invalidParameter` for an empty passphrase
    /// or a ciphertext of the wrong length for `curve`; `.invalidKey` for bytes that are no key
    /// on `curve`.
    public func privateKey(passphrase: [UInt8], curve: Curve, associatedData: [UInt8]) throws(CryptoError) -> PrivateKey {
        guard ciphertext.count == curve.coordinateByteCount + AESGCM.tagByteCount else {
            throw CryptoError(
                .invalidParameter,
                "the sealed key has \(ciphertext.count) bytes; a sealed \(curve) key has \(curve.coordinateByteCount + AESGCM.tagByteCount)")
        }
        let sealingKey = try Self.deriveKey(passphrase: passphrase, salt: salt, parameters: parameters)
        var raw: [UInt8]
        do {
            raw = try AESGCM.open(ciphertext, key: sealingKey, nonce: nonce, authenticating: associatedData)
        } catch where error.code == .authenticationFailure {
            throw CryptoError(.authenticationFailure, "wrong passphrase or altered sealed key")
        }
        defer { Self.wipe(&raw) }
        return try PrivateKey(rawRepresentation: raw, curve: curve)
    }

    /// The 32-byte AES-256 key scrypt derives from `passphrase` and `salt` with `parameters`,
    /// OpenSSL's own memory limit set to ``Parameters/maximumMemoryByteCount`` as well.
    static func deriveKey(passphrase: [UInt8], salt: [UInt8], parameters: Parameters) throws(CryptoError) -> SymmetricKey {
        guard !passphrase.isEmpty else {
            throw CryptoError(.invalidParameter, "the passphrase is empty")
        }
        var cost = parameters.cost
        var blockSize = parameters.blockSize
        var parallelization = parameters.parallelization
        // OpenSSL counts 128 × r × (N + 2) bytes for V and 128 × r × p for B; the limit leaves
        // room for the 128 × r × (p + 2) beyond the bound on 128 × r × N.
        var memoryLimit = Parameters.maximumMemoryByteCount
            + 128 * UInt64(Parameters.maximumBlockSize) * UInt64(Parameters.maximumParallelization + 2)
        let derived = passphrase.withUnsafeBytes { passphraseBytes in
            salt.withUnsafeBytes { saltBytes in Result { () throws(CryptoError) -> SecureBytes in
                // The names and buffers stay alive until the derivation returns.
                var settings = [
                    OSSL_PARAM_construct_octet_string(
                        mdoc_OSSL_KDF_PARAM_PASSWORD(), UnsafeMutableRawPointer(mutating: passphraseBytes.baseAddress), passphraseBytes.count),
                    OSSL_PARAM_construct_octet_string(
                        mdoc_OSSL_KDF_PARAM_SALT(), UnsafeMutableRawPointer(mutating: saltBytes.baseAddress), saltBytes.count),
                    OSSL_PARAM_construct_uint64(mdoc_OSSL_KDF_PARAM_SCRYPT_N(), &cost),
                    OSSL_PARAM_construct_uint32(mdoc_OSSL_KDF_PARAM_SCRYPT_R(), &blockSize),
                    OSSL_PARAM_construct_uint32(mdoc_OSSL_KDF_PARAM_SCRYPT_P(), &parallelization),
                    OSSL_PARAM_construct_uint64(mdoc_OSSL_KDF_PARAM_SCRYPT_MAXMEM(), &memoryLimit),
                ]
                return try KeyDerivationFunction.scrypt.derive(
                    outputByteCount: AESGCM.keyByteCount, parameters: &settings, failure: "scrypt with \(parameters) failed")
            } }
        }
        let output = try derived.get()
        return SymmetricKey(storage: output)
    }

    /// `count` bytes from OpenSSL's default random generator.
    private static func randomBytes(_ count: Int) throws(CryptoError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        guard RAND_bytes(&bytes, Int32(count)) == 1 else {
            throw .openSSL(.libraryFailure, "no random bytes")
        }
        return bytes
    }

    /// Overwrites `bytes` with zeros in a way the compiler keeps (`OPENSSL_cleanse`): for the
    /// private key's bytes here, and for a passphrase once the caller is done with it.
    public static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { buffer in
            if let start = buffer.baseAddress { OPENSSL_cleanse(start, buffer.count) }
        }
    }
}
