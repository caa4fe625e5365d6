import MdocTerminal

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes the files `mdoc-issuer` makes. A file is created with its final mode by `open(2)`
/// (`O_CREAT | O_EXCL`, not following a symbolic link) and the mode is set again with `fchmod`
/// before any byte is written, so a private key is never readable by others, whatever the umask.
enum OutputFile {
    /// Mode of private key and credential files (design.md rule 8).
    static let privateMode: mode_t = 0o600
    /// Mode of certificate files.
    static let publicMode: mode_t = 0o644

    /// Whether something exists at `path` (a dangling symbolic link included).
    static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    /// Writes `bytes` to a new file at `path` with `mode`; with `replacing`, an existing file is
    /// removed first (never written through).
    static func create(_ bytes: [UInt8], at path: String, mode: mode_t, replacing: Bool) throws(ProgramFailure) {
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
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw failure(path, "cannot write", errno) }
            offset += written
        }
        guard fsync(fd) == 0 else { throw failure(path, "cannot write", errno) }
    }

    /// Makes the directory `path` (mode 0700) unless it exists.
    static func makeDirectory(_ path: String) throws(ProgramFailure) {
        var status = stat()
        if stat(path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFDIR else { throw ProgramFailure(.badTrustInput, "\(path): not a directory") }
            return
        }
        guard mkdir(path, 0o700) == 0 else { throw failure(path, "cannot create the directory", errno) }
    }

    private static func failure(_ path: String, _ reason: String, _ number: Int32) -> ProgramFailure {
        ProgramFailure(.badTrustInput, "\(path): \(reason): \(String(cString: strerror(number)))")
    }
}
