import ArgumentParser
import MdocCommandLine
import MdocCrypto
import MdocFiles
import MdocModel

/// `--reader-cert` and `--reader-key` (with `--module`, `--key-file` and the token's PIN): the
/// reader authentication key and certificate chain that sign each DocRequest (ISO/IEC 18013-5
/// 9.1.4), shared by `request` and `online-request`. The key may be a file, or held by a PKCS#11
/// token or a TPM (``TokenKeyArguments``).
struct ReaderAuthenticationOptions: ParsableArguments {
    @Option(name: .customLong("reader-cert"), help: "The reader authentication certificate (PEM or DER), optionally followed by its chain in the same file.",
            completion: .file())
    var readerCert: String?

    @Option(name: .customLong("reader-key"),
            help: ArgumentHelp("The reader authentication private key: a file (PEM or COSE_Key), a PKCS#11 URI with --module, or tpm2[:TCTI] with --key-file.",
                               valueName: "file|pkcs11:...|tpm2[:TCTI]"),
            completion: .file())
    var readerKey: String?

    @Option(help: "The PKCS#11 module of the --reader-key token (opensc-pkcs11.so, libsofthsm2.so).", completion: .file())
    var module: String?

    @Option(name: .customLong("key-file"), help: "The TSS2 key blob of the --reader-key tpm2 key.", completion: .file())
    var keyFile: String?

    @OptionGroup var token: TokenPINOptions

    func validate() throws {
        guard (readerCert == nil) == (readerKey == nil) else {
            throw ValidationError("--reader-cert and --reader-key go together")
        }
        if let readerKey, TokenKeyArguments.namesTokenKey(readerKey) {
            try TokenKeyArguments.validate(readerKey, option: "--reader-key", module: module, keyFile: keyFile)
        } else if module != nil || keyFile != nil {
            throw ValidationError("--module and --key-file name a --reader-key held by a token or TPM; give --reader-key pkcs11:... or tpm2")
        }
    }

    /// The key and chain given, loaded (``ReaderAuthenticationFiles``); `nil` for an anonymous
    /// request.
    func load() throws(ProgramFailure) -> (key: PrivateKey, chain: [Certificate])? {
        guard let readerCert, let readerKey else { return nil }
        return try ReaderAuthenticationFiles.load(readerCert: readerCert, readerKey: readerKey, module: module, keyFile: keyFile, token: token)
    }
}
