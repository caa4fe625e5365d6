import ArgumentParser
import MdocCBOR
import MdocCommandLine
import MdocFiles
import MdocSession
import MdocStores
import MdocTerminal
import MdocText

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension CredentialStore {
    /// The store of this process (``UserDirectories/credentials`` under its environment).
    static var user: CredentialStore { .standard(environment: ProcessInfo.processInfo.environment) }
}

/// `mdoc-holder list`: the stored credentials.
struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the credentials in the holder's store.",
        discussion: """
            The store is the folder $XDG_DATA_HOME/swift-mdoc/credentials \
            (~/.local/share/swift-mdoc/credentials when XDG_DATA_HOME is not set), mode 0700, \
            one NAME.mdoc file per credential, mode 0600. `mdoc-holder present` without \
            --credential presents all of them. A credential whose device key is sealed is \
            opened with the passphrase of --passphrase-file or MDOC_KEY_PASSPHRASE; without \
            it, or with a wrong one, it is listed as unusable, with the reason.

            Examples:
              mdoc-holder list
              mdoc-holder list --json

            Exit codes: 0 listed (an empty store too); 7 the store cannot be read; 64 usage \
            error.
            """
    )

    @Flag(help: "Print the list as JSON (docs/json-report.md).")
    var json = false

    @OptionGroup var token: TokenPINOptions

    @OptionGroup var keyPassphrase: KeyPassphraseOptions

    func run() {
        ProgramFailure.reporting(program: "mdoc-holder") { () throws(ProgramFailure) in
            try keyPassphrase.withPassphrase { (passphrase) throws(ProgramFailure) in try list(passphrase: passphrase) }
        }
    }

    /// Lists the store, sealed device keys opened with `passphrase`.
    private func list(passphrase: [UInt8]?) throws(ProgramFailure) {
        let store = CredentialStore.user
        let pin = try token.pin()
        let names: [String]
        do {
            names = try store.names()
        } catch {
            throw ProgramFailure(.badTrustInput, "the credential store \(error)")
        }
        var summaries: [CredentialSummary] = []
        var problems: [(name: String, reason: String)] = []
        for name in names {
            do throws(InputError) {
                let loaded = try store.load(name, pin: pin, passphrase: passphrase)
                summaries.append(CredentialSummary(name: name, path: loaded.path, credential: loaded.credential))
            } catch {
                problems.append((name, error.reason))
            }
        }
        if json {
            let list = JSONReport.object(.credentialList, [
                ("store", .string(store.folder)),
                ("credentials", .array(summaries.map { .object($0.json(values: false)) })),
                ("unusable", .array(problems.map { .object([("name", .string($0.name)), ("reason", .string($0.reason))]) })),
            ])
            ProgramOutput.standardOutput.writeLine(TerminalText(lines: list.serialized(pretty: true)))
            return
        }
        guard !names.isEmpty else {
            ProgramOutput.standardOutput.writeLine("No credentials in \(store.folder); add one with: mdoc-holder import FILE")
            return
        }
        ProgramOutput.standardOutput.writeLine("\(TerminalText(count: names.count, "credential")) in \(store.folder):")
        let nameWidth = names.map(\.count).max() ?? 0
        let docTypeWidth = summaries.map(\.credential.docType.count).max() ?? 0
        for summary in summaries {
            ProgramOutput.standardOutput.writeLine("  " + summary.line(nameWidth: nameWidth, docTypeWidth: docTypeWidth))
        }
        for problem in problems {
            ProgramOutput.standardOutput.writeLine("  \(TerminalText(escaping: problem.name).padded(to: nameWidth))  unusable: \(problem.reason)")
        }
    }
}

/// `mdoc-holder show`: one credential, elements and values included.
struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show a credential: doc type, issuer, validity and every element with its value.",
        discussion: """
            CREDENTIAL is the name of a stored credential (see `mdoc-holder list`) or a \
            credential file. The device private key is never shown; a sealed one is opened \
            with the passphrase of --passphrase-file or MDOC_KEY_PASSPHRASE.

            Examples:
              mdoc-holder show mdl
              mdoc-holder show Certs/demo/pid.mdoc --json

            Exit codes: 0 shown; 7 no such credential, or not a usable credential; 64 usage \
            error.
            """
    )

    @Argument(help: ArgumentHelp("A stored credential's name, or a credential file.", valueName: "credential"),
              completion: CredentialCompletion.namesAndFiles)
    var credential: String

    @Flag(help: "Print the credential as JSON (docs/json-report.md).")
    var json = false

    @OptionGroup var token: TokenPINOptions

    @OptionGroup var keyPassphrase: KeyPassphraseOptions

    func run() {
        ProgramFailure.reporting(program: "mdoc-holder") { () throws(ProgramFailure) in
            let store = CredentialStore.user
            let pin = try token.pin()
            let loaded = try keyPassphrase.withPassphrase { (passphrase) throws(ProgramFailure) in
                try HolderCredentials.load(credential, store: store, pin: pin, passphrase: passphrase)
            }
            let name = store.contains(credential) && !OutputFile.exists(credential) ? credential : CredentialStore.defaultName(forFile: credential)
            let summary = CredentialSummary(name: name, path: loaded.path, credential: loaded.credential)
            if json {
                ProgramOutput.standardOutput.writeLine(TerminalText(lines: JSONReport.object(.credential, summary.json(values: true))
                    .serialized(pretty: true)))
            } else {
                ProgramOutput.standardOutput.write(summary.details)
            }
        }
    }
}

/// `mdoc-holder import`: copies credential files into the store.
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy credential files into the holder's store, mode 0600.",
        discussion: """
            Each FILE must be a credential (`mdoc-issuer issue` writes them); it is stored as \
            NAME.mdoc, NAME being the file's name without .mdoc unless --name gives one. The \
            copy is mode 0600 in a folder of mode 0700 whatever the original's mode, so a \
            credential that arrived readable by others (a download, a checkout) can be stored \
            safely; the original is left as it is.

            A document issued for a device key held by a PKCS#11 token or a TPM \
            (`mdoc-issuer issue --device-key PUBLIC.cose`) is bound to it here: --key-in names \
            the key, a PKCS#11 URI (RFC 7512) with --module, or tpm2[:TCTI] with --key-file, \
            the TSS2 key blob. The key is loaded (the token's PIN from --pin-file or \
            MDOC_TOKEN_PIN), checked to be the document's device key, and the stored credential \
            names it; it never holds the private key, so a copy of it presents nothing without \
            the token.

            Without a token, the device key is sealed when a passphrase is given \
            (--passphrase-file, or MDOC_KEY_PASSPHRASE): the stored credential holds the key \
            encrypted under a key derived from the passphrase with scrypt, never in the clear \
            (docs/credential-file.md); `mdoc-holder key seal` seals one stored before. A FILE \
            whose key is sealed already is read with that passphrase and stored as it is.

            Examples:
              mdoc-holder import Certs/demo/mdl.mdoc Certs/demo/pid.mdoc
              mdoc-holder import ~/Downloads/licence.mdoc --name mdl --force
              mdoc-holder import licence.mdoc --passphrase-file ~/.config/mdoc-passphrase
              mdoc-holder import mdl.mdoc --pin-file pin.txt \\
                --key-in 'pkcs11:token=wallet;object=device;type=private' \\
                --module /usr/lib/x86_64-linux-gnu/opensc-pkcs11.so

            Exit codes: 0 imported; 7 a FILE is not a usable credential, the --key-in key is \
            absent, refuses the PIN or is not the document's device key, a sealed FILE's \
            passphrase is missing or wrong, a credential of that \
            name is stored (without --force), or the store cannot be written; 64 usage error.
            """
    )

    @Argument(help: ArgumentHelp("Credential files.", valueName: "file"),
              completion: .file(extensions: [Credential.fileExtension]))
    var files: [String]

    @Option(help: "The name to store the credential under (one FILE only).")
    var name: String?

    @Flag(help: "Replace a stored credential of the same name.")
    var force = false

    @Option(name: .customLong("key-in"),
            help: ArgumentHelp("Where the device key is held: a PKCS#11 URI, or tpm2[:TCTI] (default TCTI device:/dev/tpmrm0).",
                               valueName: "pkcs11:...|tpm2[:TCTI]"))
    var keyIn: String?

    @Option(help: "The PKCS#11 module of the --key-in token (opensc-pkcs11.so, libsofthsm2.so).", completion: .file())
    var module: String?

    @Option(name: .customLong("key-file"), help: "The TSS2 key blob of the --key-in tpm2 key.", completion: .file())
    var keyFile: String?

    @OptionGroup var token: TokenPINOptions

    @OptionGroup var keyPassphrase: KeyPassphraseOptions

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give at least one credential FILE") }
        if keyIn != nil, files.count > 1 { throw ValidationError("--key-in is the key of one document; give one FILE with it") }
        if let keyIn {
            try TokenKeyArguments.validate(keyIn, option: "--key-in", module: module, keyFile: keyFile)
        } else if module != nil || keyFile != nil {
            throw ValidationError("--module and --key-file name the key of --key-in; give --key-in")
        }
        if name != nil, files.count > 1 { throw ValidationError("--name names one credential; give one FILE with it") }
        if let name, !CredentialStore.isValidName(name) {
            throw ValidationError("--name \(name): use letters, digits, '.', '_' and '-', at most \(CredentialStore.maximumNameLength), not starting with '.'")
        }
    }

    func run() {
        ProgramFailure.reporting(program: "mdoc-holder") { () throws(ProgramFailure) in
            try keyPassphrase.withPassphrase { (passphrase) throws(ProgramFailure) in try importFiles(passphrase: passphrase) }
        }
    }

    /// Stores each FILE, a device key in the clear sealed with `passphrase` when one is given.
    private func importFiles(passphrase: [UInt8]?) throws(ProgramFailure) {
        let store = CredentialStore.user
        let pin = try token.pin()
        for file in files {
            // Read once: the bytes checked are the bytes stored. The original's mode is not
            // held against it, since the copy is made private; it is pointed out instead.
            let source: InputSource
            let credential: Credential
            do throws(InputError) {
                source = try InputSource.load(file)
                if let reference = keyReference() {
                    credential = try bind(source, to: reference, pin: pin)
                } else {
                    credential = try CredentialFiles.decode(source, pin: pin, passphrase: passphrase)
                }
            } catch {
                throw ProgramFailure(.badTrustInput, "\(error)")
            }
            let stored = name ?? CredentialStore.defaultName(forFile: file)
            var bytes = keyIn == nil ? source.bytes : credential.encoded()
            var sealed = credential.sealedDeviceKey != nil
            if let passphrase, credential.holdsKeyInTheClear {
                do {
                    bytes = try credential.sealed(passphrase: passphrase).encoded()
                } catch {
                    throw ProgramFailure(.badTrustInput, "\(file): cannot seal its device key: \(error)")
                }
                sealed = true
            }
            try store.store(bytes, as: stored, replacing: force)
            ProgramOutput.standardOutput.writeLine(
                "Stored \(credential.docType) as \(stored) (\(store.path(of: stored)), mode 0600)"
                    + (credential.deviceKeyReference.map { ", device key held by \($0)" } ?? "")
                    + (sealed ? ", device key sealed with the passphrase" : ""))
            if credential.holdsKeyInTheClear, CredentialFiles.isExposed(file, credential: credential) {
                ProgramOutput.standardError.writeLine(
                    "mdoc-holder: note: \(file) may be read by others and holds the device private key; delete it, or run: chmod 600 \(file)")
            } else if credential.holdsKeyInTheClear, sealed {
                ProgramOutput.standardError.writeLine(
                    "mdoc-holder: note: \(file) still holds the device private key in the clear; delete it once the stored credential works")
            }
        }
    }

    /// The key --key-in, --module and --key-file name, their paths made absolute; `nil` without
    /// --key-in.
    private func keyReference() -> DeviceKeyReference? {
        keyIn.map { TokenKeyArguments.reference($0, module: module, keyFile: keyFile) }
    }

    /// The credential of `source`, a document issued for the public half of the key
    /// `reference` names, bound to that key: loaded with `pin` and checked to be the MSO's.
    private func bind(_ source: InputSource, to reference: DeviceKeyReference, pin: [UInt8]?) throws(InputError) -> Credential {
        let cbor: CBOR
        do {
            cbor = try CBOR.decode(source.bytes)
        } catch {
            throw InputError(.unsupportedContent, source: source.name, "is not CBOR (\(error)); expected a credential, the CBOR file `mdoc-issuer issue` writes")
        }
        let key = try CredentialFiles.deviceKey(reference, pin: pin, source: "--key-in")
        do {
            return try Credential(cbor: cbor, at: .root, heldKey: key, reference: reference)
        } catch {
            throw InputError(.unsupportedContent, source: source.name, "cannot be bound to --key-in: \(error)")
        }
    }
}

/// `mdoc-holder remove`: deletes stored credentials.
struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Remove credentials from the holder's store.",
        discussion: """
            Deletes the stored credentials NAME... (see `mdoc-holder list`); the device private \
            key in each is gone with it. A key held by a PKCS#11 token or a TPM stays there: \
            remove it with the token's own tools.

            Example:
              mdoc-holder remove mdl

            Exit codes: 0 removed; 7 no credential of that name, or it cannot be removed; 64 \
            usage error.
            """
    )

    @Argument(help: ArgumentHelp("Names of stored credentials.", valueName: "name"), completion: CredentialCompletion.names)
    var names: [String]

    func validate() throws {
        guard !names.isEmpty else { throw ValidationError("give the name of at least one stored credential (mdoc-holder list)") }
    }

    func run() {
        ProgramFailure.reporting(program: "mdoc-holder") { () throws(ProgramFailure) in
            let store = CredentialStore.user
            for name in names {
                try store.remove(name)
                ProgramOutput.standardOutput.writeLine("Removed \(name) from \(store.folder)")
            }
        }
    }
}
