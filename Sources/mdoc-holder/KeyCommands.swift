import ArgumentParser
import MdocCBOR
import MdocCOSE
import MdocCommandLine
import MdocCrypto
import MdocFiles
import MdocSession
import MdocStores
import MdocTerminal
import MdocText

/// `mdoc-holder key`: the device keys (SDeviceKey, ISO/IEC 18013-5 9.1.3) of the holder's
/// credentials: made inside a PKCS#11 token or a TPM, or sealed with a passphrase.
struct Key: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Make device keys in a token or TPM, or seal a credential's key with a passphrase.",
        subcommands: [Generate.self, Seal.self]
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
                  completion: CredentialCompletion.namesAndFiles)
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

    /// `mdoc-holder key generate`: a device key (SDeviceKey, ISO/IEC 18013-5 9.1.3) made inside
    /// a PKCS#11 token or a TPM 2.0, whose public COSE_Key an issuer issues for.
    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a device key inside a PKCS#11 token or a TPM and print its public COSE_Key.",
            discussion: """
                The key pair is made by the token or the TPM and its private key never leaves \
                it. --in names where: a PKCS#11 URI (RFC 7512) with --module, its object \
                attribute the new key's label (the token's PIN from --pin-file or \
                MDOC_TOKEN_PIN; a label the token holds already is refused); or tpm2[:TCTI] \
                (default TCTI device:/dev/tpmrm0) with --key-file, where the TSS2 key blob is \
                written (mode 0600; the TPM's wrapped key, usable by that TPM only: it is the \
                key, keep it). A token key is made sensitive and not extractable, for signing and \
                key agreement; a TPM key may sign and decrypt, so both DeviceSignature (ECDSA) \
                and DeviceMac (ECDH) work.

                The public key is printed as a COSE_Key (RFC 9052 section 7) in CBOR \
                diagnostic notation and, with --out, written there as CBOR (mode 0644), the \
                file `mdoc-issuer issue --device-key` takes. The document issued for it is then \
                bound to the key with `mdoc-holder import FILE --key-in ...`, the same --in, \
                --module or --key-file.

                Examples:
                  mdoc-holder key generate --pin-file pin.txt \\
                    --in 'pkcs11:token=wallet;object=device' \\
                    --module /usr/lib/x86_64-linux-gnu/opensc-pkcs11.so --out device.cose
                  mdoc-holder key generate --in tpm2 --key-file device.tss2.pem \\
                    --out device.cose

                Exit codes: 0 made; 7 the token or TPM is absent, refuses the PIN, holds a key \
                of that label or does not make a key on --curve, or --out or --key-file exists \
                or cannot be written; 64 usage error.
                """
        )

        @Option(name: .customLong("in"),
                help: ArgumentHelp("Where to make the key: a PKCS#11 URI with an object label, or tpm2[:TCTI] (default TCTI device:/dev/tpmrm0).",
                                   valueName: "pkcs11:...|tpm2[:TCTI]"))
        var location: String

        @Option(help: "The PKCS#11 module of the --in token (opensc-pkcs11.so, libsofthsm2.so).", completion: .file())
        var module: String?

        @Option(name: .customLong("key-file"), help: "Where to write the TSS2 key blob of the --in tpm2 key (mode 0600).", completion: .file())
        var keyFile: String?

        @Option(help: "The curve of the key.")
        var curve: CurveName = .p256

        @Option(help: "Write the public COSE_Key here as CBOR (mode 0644).", completion: .file())
        var out: String?

        @Flag(help: "Replace an existing --out file (never a --key-file: it is the only way to its key).")
        var force = false

        @OptionGroup var token: TokenPINOptions

        func validate() throws {
            try TokenKeyArguments.validate(location, option: "--in", module: module, keyFile: keyFile)
            if location.hasPrefix("pkcs11:") {
                let attributes = location.dropFirst("pkcs11:".count).prefix { $0 != "?" }.split(separator: ";")
                guard attributes.contains(where: { $0.hasPrefix("object=") && $0.count > "object=".count }) else {
                    throw ValidationError("--in \(location): give the new key's label as the URI's object attribute (pkcs11:token=...;object=NAME)")
                }
            }
            guard curve.curve.isWeierstrass else {
                throw ValidationError("--curve \(curve.rawValue): a device key signs and agrees keys; give p256, p384, p521 or a brainpool curve")
            }
            if let out, out == keyFile { throw ValidationError("--out and --key-file must be different files") }
        }

        func run() {
            ProgramFailure.reporting(program: "mdoc-holder") { () throws(ProgramFailure) in
                // Checked before the key is made, which cannot be undone.
                if let keyFile {
                    guard !OutputFile.exists(keyFile) else {
                        throw ProgramFailure(.badTrustInput, "--key-file \(keyFile): exists; it may be the only way to a key: give another name")
                    }
                    try OutputFile.checkWritable(keyFile, option: "--key-file")
                }
                if let out {
                    if !force, OutputFile.exists(out) { throw ProgramFailure(.badTrustInput, "--out \(out): exists; give --force to replace it") }
                    try OutputFile.checkWritable(out, option: "--out")
                }
                let reference = TokenKeyArguments.reference(location, module: module, keyFile: keyFile)
                let key = try makeKey(reference)
                let coseKey = COSEKey(publicKey: key.publicKey)
                if let out {
                    try OutputFile.create(coseKey.encoded(), at: out, mode: OutputFile.publicMode, replacing: force)
                }
                switch reference {
                case let .pkcs11(uri, _):
                    ProgramOutput.standardOutput.writeLine("Made a \(key.curve) device key in the token as \(uri)")
                case let .tpm2(keyFile, _):
                    ProgramOutput.standardOutput.writeLine("Made a \(key.curve) device key in the TPM, its key blob in \(keyFile) (mode 0600)")
                }
                if let out {
                    ProgramOutput.standardOutput.writeLine("Wrote its public COSE_Key to \(out) (mode 0644), for mdoc-issuer issue --device-key")
                }
                ProgramOutput.standardOutput.writeLine("Public COSE_Key: \(coseKey.cbor.diagnosticNotation())")
            }
        }

        /// The key made where `reference` says; the TSS2 key blob of a TPM key written to its
        /// --key-file.
        private func makeKey(_ reference: DeviceKeyReference) throws(ProgramFailure) -> PrivateKey {
            let pin = try token.pin()
            let made: (key: PrivateKey, blob: [UInt8]?)
            do throws(CryptoError) {
                switch reference {
                case let .pkcs11(uri, module):
                    made = (try KeyProvider.pkcs11(module: module, pin: pin).generatePrivateKey(pkcs11URI: uri, curve: curve.curve), nil)
                case let .tpm2(_, tcti):
                    let provider = try KeyProvider.tpm2(tcti: tcti)
                    let key = try provider.generatePrivateKey(curve: curve.curve)
                    made = (key, try provider.tss2KeyBlob(of: key))
                }
            } catch {
                throw ProgramFailure(.badTrustInput, "--in \(location): no key made (\(error.code)): \(error.reason)")
            }
            if let blob = made.blob, case let .tpm2(keyFile, _) = reference {
                try OutputFile.create(blob, at: keyFile, mode: OutputFile.privateMode, replacing: false)
            }
            return made.key
        }
    }
}
