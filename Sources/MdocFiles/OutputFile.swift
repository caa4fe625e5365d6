import MdocText

#if canImport(Glibc)
import Glibc
import MdocPosix
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes the files the programs make: keys, certificates and credentials (`mdoc-issuer`),
/// credentials imported into the holder's store, the portrait a reader exports, a QR code image.
///
/// A file is created with its final mode by `open(2)` (`O_CREAT | O_EXCL`, not following a
/// symbolic link) and the mode is set again with `fchmod` before any byte is written, so a
/// private key is never readable by others, whatever the umask. Failures name the path and the
/// system's reason (`strerror`), never a Foundation error.
public enum OutputFile {
    /// Mode of private key and credential files (docs/architecture.md rule 8), and of personal data a
    /// reader exports.
    public static let privateMode: mode_t = 0o600
    /// Mode of certificate files and other public output.
    public static let publicMode: mode_t = 0o644

    /// Whether something exists at `path` (a dangling symbolic link included).
    public static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    /// Whether `path` is a directory (following symbolic links).
    public static func isDirectory(_ path: String) -> Bool {
        DirectoryListing.kind(of: path) == .folder
    }

    /// Checks, before a session or any other work whose result would be lost, that a file can
    /// be written at `path` later: its folder exists, is a folder and may be written, and
    /// `path` is not a folder. `option` (such as `--portrait-out`) starts the message.
    public static func checkWritable(_ path: String, option: String) throws(ProgramFailure) {
        let folder = parentFolder(of: path)
        var status = stat()
        guard stat(folder, &status) == 0 else {
            let number = errno
            throw ProgramFailure(
                .badTrustInput,
                number == ENOENT
                    ? "\(option) \(path): the folder \(folder) does not exist"
                    : "\(option) \(path): cannot reach the folder \(folder): \(String(cString: strerror(number)))")
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw ProgramFailure(.badTrustInput, "\(option) \(path): \(folder) is not a folder")
        }
        guard access(folder, W_OK | X_OK) == 0 else {
            throw ProgramFailure(
                .badTrustInput, "\(option) \(path): cannot write in the folder \(folder): \(String(cString: strerror(errno)))")
        }
        if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            throw ProgramFailure(.badTrustInput, "\(option) \(path): is a folder; give a file name")
        }
    }

    /// Writes `bytes` to a new file at `path` with `mode`; with `replacing`, an existing file is
    /// removed first (never written through).
    public static func create(_ bytes: [UInt8], at path: String, mode: mode_t, replacing: Bool) throws(ProgramFailure) {
        if replacing, exists(path), unlink(path) != 0 {
            throw failure(path, "cannot remove the existing file", errno)
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard fd >= 0 else {
            let number = errno
            if number == EEXIST { throw ProgramFailure(.badTrustInput, "\(path): exists; give --force to replace it") }
            throw failure(path, "cannot create", number)
        }
        defer { close(fd) }
        guard fchmod(fd, mode) == 0 else { throw failure(path, "cannot set mode \(String(mode, radix: 8))", errno) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { buffer in SystemCall.make { write(fd, buffer.baseAddress, buffer.count) } }
            guard case .success(let count) = written, count > 0 else { throw failure(path, "cannot write", written.failureCode) }
            offset += count
        }
        guard fsync(fd) == 0 else { throw failure(path, "cannot write", errno) }
    }

    /// Replaces the file at `path` with `bytes` in one step: they are written to a new file
    /// with `mode` beside it, flushed, and renamed over `path` (`rename(2)` is atomic), so that
    /// at every moment `path` holds either the old bytes or the new ones. The new file is
    /// removed when anything fails.
    public static func replaceAtomically(_ bytes: [UInt8], at path: String, mode: mode_t) throws(ProgramFailure) {
        var template = Array((parentFolder(of: path) + "/.mdoc-replace-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw failure(path, "cannot create a file beside it", errno) }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        var renamed = false
        defer {
            close(fd)
            if !renamed { unlink(temporary) }
        }
        guard fchmod(fd, mode) == 0 else { throw failure(temporary, "cannot set mode \(String(mode, radix: 8))", errno) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { buffer in SystemCall.make { write(fd, buffer.baseAddress, buffer.count) } }
            guard case .success(let count) = written, count > 0 else { throw failure(temporary, "cannot write", written.failureCode) }
            offset += count
        }
        guard fsync(fd) == 0 else { throw failure(temporary, "cannot write", errno) }
        guard rename(temporary, path) == 0 else { throw failure(path, "cannot replace", errno) }
        renamed = true
    }

    /// Makes the directory `path` (mode 0700) unless it exists; with `parents`, the folders
    /// above it too (each 0700), as `mkdir -p` does.
    public static func makeDirectory(_ path: String, parents: Bool = false) throws(ProgramFailure) {
        var status = stat()
        if stat(path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFDIR else { throw ProgramFailure(.badTrustInput, "\(path): not a directory") }
            return
        }
        if parents {
            let parent = parentFolder(of: path)
            if parent != path { try makeDirectory(parent, parents: true) }
        }
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else { throw failure(path, "cannot create the directory", errno) }
    }

    /// Removes the file at `path`.
    public static func remove(_ path: String) throws(ProgramFailure) {
        guard unlink(path) == 0 else { throw failure(path, "cannot remove", errno) }
    }

    /// The folder `path` is in: `.` for a bare name, `/` for a name at the root.
    static func parentFolder(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        let folder = trimmed[..<slash]
        return folder.isEmpty ? "/" : String(folder)
    }

    private static func failure(_ path: String, _ reason: String, _ number: Int32) -> ProgramFailure {
        ProgramFailure(.badTrustInput, "\(path): \(reason): \(String(cString: strerror(number)))")
    }
}
