import MdocFiles
import MdocSession
import MdocText

/// The holder's credentials between runs: one folder (``UserDirectories/credentials``, mode
/// 0700) of credential files named `NAME.mdoc`, each mode 0600. `mdoc-holder present` presents
/// them all when no `--credential` is given, and takes `--credential NAME` for one of them;
/// `mdoc-holder import`, `list`, `show` and `remove` manage them.
public struct CredentialStore: Sendable {
    /// The most credentials the store lists: far more than a person holds, and a bound on what
    /// `present` reads at start-up.
    public static let maximumCredentials = 256
    /// The longest name, in characters.
    public static let maximumNameLength = 64

    /// The folder.
    public let folder: String

    /// The store in `folder`.
    public init(folder: String) {
        self.folder = folder
    }

    /// The store of a process with `environment` (``UserDirectories/credentials``).
    public static func standard(environment: [String: String]) -> CredentialStore {
        CredentialStore(folder: UserDirectories(environment: environment).credentials)
    }

    /// `true` when `name` can name a stored credential: 1 to ``maximumNameLength`` letters,
    /// digits, `.`, `_` or `-`, not starting with a dot.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= maximumNameLength && !name.hasPrefix(".")
            && name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0)) }
    }

    /// The name a credential imported from `path` gets: its file name without the folder and
    /// without the `.mdoc` extension.
    public static func defaultName(forFile path: String) -> String {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        let suffix = "." + Credential.fileExtension
        return file.hasSuffix(suffix) && file.count > suffix.count ? String(file.dropLast(suffix.count)) : file
    }

    /// The path of the credential `name`.
    public func path(of name: String) -> String {
        folder + "/" + name + "." + Credential.fileExtension
    }

    /// The names of the stored credentials, sorted; none when the folder does not exist.
    public func names() throws(InputError) -> [String] {
        guard DirectoryListing.kind(of: folder) == .folder else { return [] }
        let suffix = "." + Credential.fileExtension
        return try DirectoryListing.files(in: folder, limit: Self.maximumCredentials)
            .map(\.name).filter { $0.hasSuffix(suffix) }.map { String($0.dropLast(suffix.count)) }
            .filter(Self.isValidName)
    }

    /// `true` when a credential `name` is stored.
    public func contains(_ name: String) -> Bool {
        Self.isValidName(name) && DirectoryListing.kind(of: path(of: name)) == .file
    }

    /// The stored credential `name`, as ``load(_:pin:)`` reads it without a PIN.
    public func load(_ name: String) throws(InputError) -> CredentialFiles.Loaded {
        try load(name, pin: nil)
    }

    /// The stored credential `name`, as ``load(_:pin:passphrase:)`` reads it without a passphrase.
    public func load(_ name: String, pin: [UInt8]?) throws(InputError) -> CredentialFiles.Loaded {
        try load(name, pin: pin, passphrase: nil)
    }

    /// The credential `name` (``CredentialFiles/load(_:pin:passphrase:)``), `pin` answering the
    /// login of the token that holds its device key, if one does, and `passphrase` opening its
    /// sealed device key, if it has one.
    public func load(_ name: String, pin: [UInt8]?, passphrase: [UInt8]?) throws(InputError) -> CredentialFiles.Loaded {
        guard Self.isValidName(name) else {
            throw InputError(.unsupportedContent, source: name, "not a credential name (letters, digits, '.', '_' and '-')")
        }
        return try CredentialFiles.load(path(of: name), pin: pin, passphrase: passphrase)
    }

    /// Stores `bytes`, which hold a credential, as `name` (mode 0600, the folder made 0700 when
    /// missing); an existing credential of that name is replaced only with `replacing`.
    public func store(_ bytes: [UInt8], as name: String, replacing: Bool) throws(ProgramFailure) {
        guard Self.isValidName(name) else {
            throw ProgramFailure(.usage, "\(name): not a credential name; use letters, digits, '.', '_' and '-', at most \(Self.maximumNameLength)")
        }
        try OutputFile.makeDirectory(folder, parents: true)
        if !replacing, contains(name) {
            throw ProgramFailure(.badTrustInput, "a credential named \(name) is already stored; give --force to replace it, or --name")
        }
        try OutputFile.create(bytes, at: path(of: name), mode: OutputFile.privateMode, replacing: replacing)
    }

    /// Removes the credential `name`.
    public func remove(_ name: String) throws(ProgramFailure) {
        guard contains(name) else {
            throw ProgramFailure(.badTrustInput, "no credential named \(name) in \(folder) (`mdoc-holder list` shows them)")
        }
        try OutputFile.remove(path(of: name))
    }
}
