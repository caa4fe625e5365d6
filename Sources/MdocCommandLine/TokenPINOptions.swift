import ArgumentParser
import MdocFiles
import MdocText

/// `--pin-file`: the user PIN (PKCS#11 3.0 section 5.6 C_Login) of the token that holds a key
/// (a holder's device key, a reader's reader authentication key), or the authorization value of
/// a TPM key that has one (TPM 2.0 Part 1, 19.6.4), read from a file or from
/// `MDOC_TOKEN_PIN` (``SecretInput``), never from the command line. It is handed to the token
/// only and never printed. `mdoc-holder` and `mdoc-reader` share it.
package struct TokenPINOptions: ParsableArguments {
    /// The environment variable read when no `--pin-file` is given.
    package static let environmentVariable = "MDOC_TOKEN_PIN"

    @Option(name: .customLong("pin-file"),
            help: "A file whose first line is the PIN of the token holding the key, or of the TPM key (else $MDOC_TOKEN_PIN).",
            completion: .file())
    package var pinFile: String?

    /// No `--pin-file`: the PIN from `MDOC_TOKEN_PIN`, if set.
    package init() {}

    /// The PIN: the first line of `--pin-file`, else `MDOC_TOKEN_PIN`, else `nil` (a token that
    /// needs one then refuses the login).
    package func pin() throws(ProgramFailure) -> [UInt8]? {
        try SecretInput.read(file: pinFile, option: "--pin-file", variable: Self.environmentVariable)
    }
}
