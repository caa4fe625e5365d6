import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocFiles

/// Reads private keys for options such as `--reader-key`: PEM (PKCS#8 or SEC1), or a COSE_Key
/// with its `d` parameter as binary or hex CBOR.
public enum KeyFiles {
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
