import ArgumentParser
import MdocFiles
import MdocText

/// `--pin-file`: the user PIN (PKCS#11 3.0 section 5.6 C_Login) of the token that holds a
/// credential's device key, read from a file or from `MDOC_TOKEN_PIN` (``SecretInput``), never
/// from the command line. It is handed to the token only and never printed.
struct TokenPINOptions: ParsableArguments {
    /// The environment variable read when no `--pin-file` is given.
    static let environmentVariable = "MDOC_TOKEN_PIN"

    @Option(name: .customLong("pin-file"),
            help: "A file whose first line is the PIN of the token holding the device key (else $MDOC_TOKEN_PIN).",
            completion: .file())
    var pinFile: String?

    /// The PIN: the first line of `--pin-file`, else `MDOC_TOKEN_PIN`, else `nil` (a token that
    /// needs one then refuses the login).
    func pin() throws(ProgramFailure) -> [UInt8]? {
        try SecretInput.read(file: pinFile, option: "--pin-file", variable: Self.environmentVariable)
    }
}
