import ArgumentParser
import MdocCommandLine
import MdocFiles
import MdocCrypto
import MdocStores
import MdocText

/// `--passphrase-file`: the passphrase that seals a credential's software device key
/// (`SealedDeviceKey`: scrypt, then AES-256-GCM), read from a file or from
/// `MDOC_KEY_PASSPHRASE` (``SecretInput``), never from the command line. It is wiped once used
/// and never printed.
struct KeyPassphraseOptions: ParsableArguments {
    /// The environment variable read when no `--passphrase-file` is given.
    static let environmentVariable = CredentialFiles.passphraseVariable

    @Option(name: .customLong("passphrase-file"),
            help: "A file whose first line is the passphrase that seals the device key (else $MDOC_KEY_PASSPHRASE).",
            completion: .file())
    var passphraseFile: String?

    /// Runs `body` with the passphrase (the first line of `--passphrase-file`, else
    /// `MDOC_KEY_PASSPHRASE`, else `nil`) and wipes it afterwards.
    func withPassphrase<Result>(_ body: ([UInt8]?) throws(ProgramFailure) -> Result) throws(ProgramFailure) -> Result {
        var passphrase = try SecretInput.read(file: passphraseFile, option: "--passphrase-file", variable: Self.environmentVariable)
        defer {
            if var bytes = passphrase {
                passphrase = nil
                SealedPrivateKey.wipe(&bytes)
            }
        }
        return try body(passphrase)
    }
}
