import MdocCrypto
import MdocFiles
import MdocSession
import MdocStores
import MdocTerminal
import MdocText

/// The credentials a holder command works on: `--credential` files, names of credentials in the
/// store, or, when none is given, every stored credential; a device key held by a token is
/// loaded with the PIN of ``TokenPINOptions``, a sealed one opened with the passphrase of
/// ``KeyPassphraseOptions``.
enum HolderCredentials {
    /// The credentials `arguments` name (files, or names in `store`), or all of `store`. Of a
    /// store, a credential that cannot be used (others may read it, its token is absent) is
    /// left out with a warning naming it, so that one bad file does not stop the others; the
    /// first such failure is thrown only when none can be used.
    static func load(_ arguments: [String], store: CredentialStore, pin: [UInt8]?, passphrase: [UInt8]?) throws(ProgramFailure) -> [Credential] {
        guard arguments.isEmpty else {
            return try arguments.map { (name) throws(ProgramFailure) in try load(name, store: store, pin: pin, passphrase: passphrase).credential }
        }
        let names: [String]
        do {
            names = try store.names()
        } catch {
            throw ProgramFailure(.badTrustInput, "the credential store \(error)")
        }
        guard !names.isEmpty else {
            throw ProgramFailure(
                .usage, "no --credential given, and the credential store \(store.folder) holds none",
                hint: "give --credential FILE, or store one first: mdoc-holder import FILE")
        }
        var credentials: [Credential] = []
        var failures: [ProgramFailure] = []
        for name in names {
            do throws(ProgramFailure) {
                credentials.append(try load(name, store: store, pin: pin, passphrase: passphrase, fromStore: true).credential)
            } catch {
                failures.append(error)
                ProgramOutput.standardError.writeLine("mdoc-holder: warning: \(error.message); it is left out")
            }
        }
        if credentials.isEmpty, let first = failures.first {
            throw first
        }
        return credentials
    }

    /// One credential: the file `argument`, or, when no such file exists and `argument` is a
    /// name, the stored credential of that name. A file others may read is accepted only with
    /// a published device key, with a note saying so. A device key in the clear gets a warning
    /// that says how to seal it, unless it is test material: the credential says so
    /// (`testMaterial`), or its key is published (``PublishedDeviceKeys``, the demo credentials).
    /// With `fromStore`, `argument` is a name of `store` and is read from there only, and a
    /// failure names the stored credential rather than a `--credential`.
    static func load(
        _ argument: String, store: CredentialStore, pin: [UInt8]?, passphrase: [UInt8]?, fromStore: Bool = false
    ) throws(ProgramFailure) -> CredentialFiles.Loaded {
        let loaded: CredentialFiles.Loaded
        do throws(InputError) {
            if !fromStore, OutputFile.exists(argument) || !CredentialStore.isValidName(argument) {
                loaded = try CredentialFiles.load(argument, pin: pin, passphrase: passphrase)
            } else if store.contains(argument) {
                loaded = try store.load(argument, pin: pin, passphrase: passphrase)
            } else {
                throw InputError(
                    .unreadable, source: argument,
                    "no such file, and no credential of that name in \(store.folder) (`mdoc-holder list` shows them)")
            }
        } catch {
            throw ProgramFailure(.badTrustInput, "\(fromStore ? "the stored credential \(argument):" : "--credential") \(error)")
        }
        if loaded.isPublishedTestMaterial {
            ProgramOutput.standardError.writeLine(
                "mdoc-holder: note: \(loaded.path) may be read by others; it is used because its device key is published test material (anyone can present this credential)")
        }
        let notes = loaded.credential.testMaterial
        if !notes.isEmpty {
            ProgramOutput.standardError.writeLine(
                "mdoc-holder: note: \(loaded.path) is TEST MATERIAL, made to fail verification: \(notes.joined(separator: "; "))")
        } else if loaded.credential.holdsKeyInTheClear, !PublishedDeviceKeys.contains(loaded.credential.deviceKey.publicKey) {
            ProgramOutput.standardError.writeLine(
                "mdoc-holder: warning: \(loaded.path) holds its device private key in the clear; seal it with a passphrase: mdoc-holder key seal \(argument)")
        }
        return loaded
    }
}
