import MdocCOSE
import MdocCommandLine
import MdocCrypto
import MdocFiles
import MdocSession
import MdocStores
import MdocText

/// The reader authentication key and certificate chain of `--reader-cert` and `--reader-key`,
/// for `request` and `online-request` alike.
enum ReaderAuthenticationFiles {
    /// The chain of `readerCert` and the key `readerKey`: the key must be the key of the first
    /// certificate and able to sign reader authentication (ISO/IEC 18013-5 9.1.4). A key held by
    /// a PKCS#11 token (`module`) or a TPM (`keyFile`) is loaded through its provider (the token
    /// logged in to with `--pin-file` or `MDOC_TOKEN_PIN`) and signs ReaderAuth there. Errors
    /// name the files by `certOption` and `keyOption`.
    static func load(
        readerCert: String, readerKey: String, module: String?, keyFile: String?, token: TokenPINOptions,
        certOption: String = "--reader-cert", keyOption: String = "--reader-key"
    ) throws(ProgramFailure) -> (key: PrivateKey, chain: [Certificate]) {
        let chain: [Certificate]
        let key: PrivateKey
        do {
            chain = try CertificateFiles.load([readerCert])
        } catch {
            throw ProgramFailure(.badTrustInput, "\(certOption) \(error)")
        }
        if TokenKeyArguments.namesTokenKey(readerKey) {
            let pin = try token.pin()
            do {
                key = try TokenKeyArguments.reference(readerKey, module: module, keyFile: keyFile).privateKey(pin: pin)
            } catch {
                throw ProgramFailure(.badTrustInput, "\(keyOption) \(readerKey) cannot be used (\(error.code)): \(error.reason)")
            }
        } else {
            do {
                key = try KeyFiles.loadPrivateKey(readerKey)
            } catch {
                throw ProgramFailure(.badTrustInput, "\(keyOption) \(error)")
            }
        }
        guard let leaf = chain.first, leaf.publicKey == key.publicKey else {
            throw ProgramFailure(
                .badTrustInput,
                "\(keyOption) \(readerKey) is not the key of the \(certOption) certificate \"\(chain.first.map { "\($0.subject)" } ?? "")\"")
        }
        guard COSEAlgorithm.signatureAlgorithm(forKeyOn: key.curve) != nil else {
            throw ProgramFailure(.badTrustInput, "\(keyOption) \(readerKey): a \(key.curve) key cannot sign reader authentication")
        }
        return (key, chain)
    }
}
