import COpenSSL
import COpenSSLShims

/// One of OpenSSL's key derivation functions (`EVP_KDF`), fetched once from the default library
/// context and kept for the process, as ``DigestAlgorithm`` keeps its digests: fetching by name is
/// a lookup under the method store's lock, and a session derives several keys. An `EVP_KDF` is
/// immutable, and each derivation makes its own context, so any thread may derive.
struct KeyDerivationFunction {
    /// The function's name in errors.
    let name: String
    /// The fetched `EVP_KDF`, `nil` when OpenSSL has no such function.
    private let kdf: OpaquePointer?

    /// HKDF (RFC 5869): ``HKDF`` and HPKE's labeled steps.
    static var hkdf: KeyDerivationFunction { KeyDerivationFunction(name: "HKDF", kdf: fetchedHKDF) }
    /// The single-step KDF of NIST SP 800-56C ("SSKDF"), the Concat KDF of ``ConcatKDF``.
    static var singleStep: KeyDerivationFunction { KeyDerivationFunction(name: "SSKDF", kdf: fetchedSingleStep) }
    /// scrypt (RFC 7914), of ``SealedPrivateKey``.
    static var scrypt: KeyDerivationFunction { KeyDerivationFunction(name: "scrypt", kdf: fetchedScrypt) }

    private nonisolated(unsafe) static let fetchedHKDF = EVP_KDF_fetch(nil, "HKDF", nil)
    private nonisolated(unsafe) static let fetchedSingleStep = EVP_KDF_fetch(nil, "SSKDF", nil)
    private nonisolated(unsafe) static let fetchedScrypt = EVP_KDF_fetch(nil, "SCRYPT", nil)

    /// `outputByteCount` bytes, in storage wiped when released, derived with `parameters`, to
    /// which the end marker is appended here. The parameters point at the caller's buffers, which
    /// must stay valid for the call. Throws `.libraryFailure` with `failure` when OpenSSL does not
    /// derive.
    func derive(
        outputByteCount: Int, parameters: inout [OSSL_PARAM], failure: @autoclosure () -> String
    ) throws(CryptoError) -> SecureBytes {
        guard let kdf else {
            throw .openSSL(.libraryFailure, "OpenSSL has no \(name)")
        }
        guard let context = EVP_KDF_CTX_new(kdf) else {
            throw .openSSL(.libraryFailure, "cannot make a \(name) context")
        }
        defer { EVP_KDF_CTX_free(context) }
        let output = SecureBytes(count: outputByteCount)
        parameters.append(OSSL_PARAM_construct_end())
        let status = output.withUnsafeMutableBytes { outputBytes in
            EVP_KDF_derive(context, outputBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), outputBytes.count, &parameters)
        }
        guard status == 1 else {
            throw .openSSL(.libraryFailure, failure())
        }
        return output
    }
}
