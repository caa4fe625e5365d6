import ArgumentParser
import MdocCBOR
import MdocCrypto
import MdocFiles
import MdocSession
import MdocStores
import MdocTerminal
import MdocText

/// `mdoc-holder key`: the device keys (SDeviceKey, ISO/IEC 18013-5 9.1.3) of the holder's
/// credentials.
struct Key: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Manage the device keys of the holder's credentials.",
        subcommands: [Seal.self]
    )
}

extension Key {
    /// `mdoc-holder key seal`: a credential's device key, kept in the clear, sealed with a
    /// passphrase in place (``SealedDeviceKey``).
    struct Seal: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Seal a credential's device private key with a passphrase, in place.",
            discussion: """
                CREDENTIAL is the name of a stored credential (see `mdoc-holder list`) or a \
                credential file whose device key is in the clear. The key is sealed with the \
                passphrase from --passphrase-file or MDOC_KEY_PASSPHRASE (never the command \
                line): scrypt (N=2^17, r=8, p=1) derives an AES-256-GCM key from it, which \
                encrypts the private key bound to the credential's public key \
                (docs/credential-file.md). The sealed credential is checked to open with the \
                passphrase, then replaces the file in one step (mode 0600): the file holds the \
                old credential or the sealed one, never neither. `mdoc-holder present`, `show` \
                and `list` then need the passphrase.

                Examples:
                  mdoc-holder key seal mdl --passphrase-file ~/.config/mdoc-passphrase
                  mdoc-holder key seal licence.mdoc    # the passphrase in MDOC_KEY_PASSPHRASE

                Exit codes: 0 sealed; 7 no such credential, not a usable credential, its key \
                sealed already or held by a token or TPM, or the file cannot be replaced; 64 \
                usage error (no passphrase given included).
                """
        )

        @Argument(help: ArgumentHelp("A stored credential's name, or a credential file.", valueName: "credential"),
                  completion: .file(extensions: [Credential.fileExtension]))
        var credential: String

        @OptionGroup var keyPassphrase: KeyPassphraseOptions

        func run() {
            ProgramFailure.reporting(program: "mdoc-holder") { () throws(ProgramFailure) in
                try keyPassphrase.withPassphrase { (passphrase) throws(ProgramFailure) in try seal(passphrase: passphrase) }
            }
        }

        private func seal(passphrase: [UInt8]?) throws(ProgramFailure) {
            guard let passphrase, !passphrase.isEmpty else {
                throw ProgramFailure(
                    .usage, "give the passphrase to seal the device key with: --passphrase-file FILE or \(KeyPassphraseOptions.environmentVariable)")
            }
            let store = CredentialStore.user
            let path = OutputFile.exists(credential) || !CredentialStore.isValidName(credential) || !store.contains(credential)
                ? credential : store.path(of: credential)
            let loaded: CredentialFiles.Loaded
            do throws(InputError) {
                let source = try InputSource.load(path)
                if let cbor = try? CBOR.decode(source.bytes) {
                    if let reference = try? Credential.deviceKeyReference(in: cbor, at: .root) {
                        throw InputError(.unsupportedContent, source: path, "its device key is held by \(reference); the file has no key to seal")
                    }
                    if (try? Credential.sealedDeviceKey(in: cbor, at: .root)) != nil {
                        throw InputError(.unsupportedContent, source: path, "its device key is sealed already")
                    }
                }
                loaded = try CredentialFiles.load(path)
            } catch {
                throw ProgramFailure(.badTrustInput, "\(error)")
            }
            let sealed: Credential
            do {
                sealed = try loaded.credential.sealed(passphrase: passphrase)
                // Opened again before the file is replaced: the passphrase given is the one that opens it.
                guard try sealed.sealedDeviceKey?.privateKey(passphrase: passphrase, publicKey: sealed.deviceKey.publicKey).publicKey
                    == loaded.credential.deviceKey.publicKey
                else {
                    throw CryptoError(.invalidKey, "the sealed key does not open to the device key")
                }
            } catch {
                throw ProgramFailure(.badTrustInput, "\(path): cannot seal its device key: \(error)")
            }
            try OutputFile.replaceAtomically(sealed.encoded(), at: path, mode: OutputFile.privateMode)
            ProgramOutput.standardOutput.writeLine(
                "Sealed the device key of \(path) with the passphrase (\(SealedPrivateKey.Parameters.standard), AES-256-GCM); the file no longer holds it in the clear")
        }
    }
}
