import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocFiles

/// Reads private keys for options such as `--reader-key`: PEM (PKCS#8 or SEC1), or a COSE_Key
/// with its `d` parameter as binary or hex CBOR; and the public COSE_Key of a key held by a
/// token or a TPM, for `mdoc-issuer issue --device-key`.
public enum KeyFiles {
    /// The public key in the file at `path` when it is a COSE_Key without `d` (RFC 9052 section
    /// 7), binary or hex CBOR; `nil` when it is anything else (PEM, a COSE_Key with `d`, no
    /// COSE_Key), which ``loadPrivateKey(_:)`` reads or names. Throws `InputError` when the file
    /// cannot be read, or when its public COSE_Key is no usable public key.
    public static func loadPublicCOSEKey(_ path: String) throws(InputError) -> PublicKey? {
        let raw = try InputSource.load(path)
        guard let key = try? COSEKey(encoded: raw.bytes), key.d == nil else { return nil }
        do {
            return try key.publicKey()
        } catch {
            throw InputError(.unsupportedContent, source: path, "the COSE_Key is not a usable public key: \(error)")
        }
    }

    /// The private key in the file at `path`.
    public static func loadPrivateKey(_ path: String) throws(InputError) -> PrivateKey {
        let raw = try InputSource.load(path)
        let text = String(decoding: raw.bytes, as: UTF8.self)
        if text.contains("-----BEGIN") {
            do {
                return try PrivateKey(pemRepresentation: text)
            } catch {
                throw InputError(.unsupportedContent, source: path, "not a usable private key: \(error)")
            }
        }
        do {
            let key = try COSEKey(encoded: raw.bytes)
            return try key.privateKey()
        } catch let error as CBORError {
            throw InputError(.unsupportedContent, source: path, "neither PEM nor a COSE_Key: \(error)")
        } catch {
            throw InputError(.unsupportedContent, source: path, "the COSE_Key is not a usable private key: \(error)")
        }
    }
}
