import ArgumentParser
import MdocFiles
import MdocSession
import MdocStores

/// What shell completion offers where the holder takes a stored credential's name: the names in
/// its credential store (`CredentialStore.user`), and, where a credential file will do as well
/// (`present --credential`, `show`, `key seal`), the credential files and folders that begin
/// with what was typed. The program computes them when the shell asks (`CompletionKind.custom`).
enum CredentialCompletion {
    /// Stored names, then credential files and folders.
    static let namesAndFiles = CompletionKind.custom { _, _, prefix in
        storedNames(prefix) + files(prefix)
    }

    /// Stored names only (`remove`).
    static let names = CompletionKind.custom { _, _, prefix in
        storedNames(prefix)
    }

    /// The names in the store that begin with `prefix`; none when the store cannot be read.
    private static func storedNames(_ prefix: String) -> [String] {
        ((try? CredentialStore.user.names()) ?? []).filter { $0.hasPrefix(prefix) }
    }

    /// The folders and credential files (`*.mdoc`) in the folder `prefix` names, up to its last
    /// `/`, whose names begin with the rest of `prefix`, hidden ones left out
    /// (`DirectoryListing.entries(in:)`).
    private static func files(_ prefix: String) -> [String] {
        let folder = prefix.lastIndex(of: "/").map { String(prefix[...$0]) } ?? ""
        let start = String(prefix.dropFirst(folder.count))
        return DirectoryListing.entries(in: folder.isEmpty ? "." : folder).compactMap { entry in
            guard entry.name.hasPrefix(start) else { return nil }
            let isCredential = entry.kind == .file && entry.name.hasSuffix("." + Credential.fileExtension)
            return entry.kind == .folder || isCredential ? folder + entry.name : nil
        }
    }
}
