#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the programs keep what outlives a run, after the XDG Base Directory Specification:
/// the holder's credentials under `$XDG_DATA_HOME` (default `~/.local/share`), the trust stores
/// under `$XDG_CONFIG_HOME` (default `~/.config`), the status lists fetched under
/// `$XDG_CACHE_HOME` (default `~/.cache`), each in a `swift-mdoc` folder.
///
/// | what | folder | used by |
/// |---|---|---|
/// | credentials | `$XDG_DATA_HOME/swift-mdoc/credentials` | `mdoc-holder present` without `--credential`, `list`, `show`, `import`, `remove` |
/// | IACA roots | `$XDG_CONFIG_HOME/swift-mdoc/trust/iaca` | `mdoc-reader request` and `verify` without `--trust` |
/// | reader roots | `$XDG_CONFIG_HOME/swift-mdoc/trust/readers` | `mdoc-holder present` without `--trust-readers` |
/// | status lists fetched | `$XDG_CACHE_HOME/swift-mdoc/status` | `mdoc-reader request` and `verify` (``StatusListResolver``) |
///
/// As the specification says, a variable that is unset, empty or not an absolute path is
/// ignored.
public struct UserDirectories: Sendable, Hashable {
    /// The folder of the holder's credentials.
    public let credentials: String
    /// The folder of the IACA roots a reader trusts.
    public let issuerTrust: String
    /// The folder of the reader roots a holder trusts.
    public let readerTrust: String
    /// The folder of the status lists a reader fetched, kept for their time to live.
    public let statusListCache: String

    /// The folders for a process with `environment`.
    public init(environment: [String: String]) {
        let home = Self.absolute(environment["HOME"]) ?? Self.passwordHome() ?? "/"
        let base = home.hasSuffix("/") ? String(home.dropLast()) : home
        let data = Self.absolute(environment["XDG_DATA_HOME"]) ?? base + "/.local/share"
        let config = Self.absolute(environment["XDG_CONFIG_HOME"]) ?? base + "/.config"
        credentials = data + "/swift-mdoc/credentials"
        issuerTrust = config + "/swift-mdoc/trust/iaca"
        readerTrust = config + "/swift-mdoc/trust/readers"
        statusListCache = (Self.absolute(environment["XDG_CACHE_HOME"]) ?? base + "/.cache") + "/swift-mdoc/status"
    }

    /// `value` when it is an absolute path.
    private static func absolute(_ value: String?) -> String? {
        guard let value, value.hasPrefix("/") else { return nil }
        return value
    }

    /// The home folder of the user in the password database, for a process without `HOME`.
    private static func passwordHome() -> String? {
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return nil }
        return String(cString: directory)
    }
}
