#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The regular files of a folder, read with `opendir(3)` and `stat(2)`, for `--trust`
/// directories and the holder's credential store; failures name the path and the system's
/// reason. Also what shell completion offers from a folder.
package enum DirectoryListing {
    /// What a path is.
    package enum Kind {
        /// Nothing exists there.
        case missing
        /// A folder.
        case folder
        /// Anything else: a file, a device.
        case file
    }

    /// What `path` is (following symbolic links).
    package static func kind(of path: String) -> Kind {
        var status = stat()
        guard stat(path, &status) == 0 else { return .missing }
        return status.st_mode & S_IFMT == S_IFDIR ? .folder : .file
    }

    /// The files (not folders) of the folder `path` whose names do not start with a dot, sorted
    /// by name, each with its path; at most `limit`, beyond which the listing fails with
    /// `InputError.Code.tooLarge`.
    package static func files(in path: String, limit: Int) throws(InputError) -> [(name: String, path: String)] {
        guard let directory = opendir(path) else {
            throw InputError(.unreadable, source: path, "cannot list the directory: \(String(cString: strerror(errno)))")
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard !name.hasPrefix(".") else { continue }
            names.append(name)
            guard names.count <= limit else {
                throw InputError(.tooLarge, source: path, "more than \(limit) files")
            }
        }
        return names.sorted().compactMap { name in
            let file = path.hasSuffix("/") ? path + name : path + "/" + name
            return kind(of: file) == .file ? (name, file) : nil
        }
    }

    /// The names in the folder `path` that do not start with a dot, sorted, each with what it
    /// is; none when the folder cannot be read. For shell completion, which offers what it
    /// finds and has nowhere to say what it could not read.
    package static func entries(in path: String) -> [(name: String, kind: Kind)] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted().map { name in (name, kind(of: path.hasSuffix("/") ? path + name : path + "/" + name)) }
    }
}
