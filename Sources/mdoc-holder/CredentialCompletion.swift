import ArgumentParser
import MdocFiles
import MdocSession
import MdocStores

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
    /// `/`, whose names begin with the rest of `prefix`; hidden ones only when that rest starts
    /// with a dot.
    private static func files(_ prefix: String) -> [String] {
        let folder = prefix.lastIndex(of: "/").map { String(prefix[...$0]) } ?? ""
        let start = String(prefix.dropFirst(folder.count))
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder) else { return [] }
        return entries.sorted().compactMap { entry in
            guard entry.hasPrefix(start), !entry.hasPrefix(".") || start.hasPrefix(".") else { return nil }
            let path = folder + entry
            return OutputFile.isDirectory(path) || entry.hasSuffix("." + Credential.fileExtension) ? path : nil
        }
    }
}
