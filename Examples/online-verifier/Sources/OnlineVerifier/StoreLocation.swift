import MdocCBOR
import PostgresNIO

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where the verifier keeps its requests: `memory` (this process; one instance) or a
/// PostgreSQL URL (shared by every instance that names it):
///
/// ```
/// postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE
/// postgres://USER@/DATABASE?host=/run/postgresql      (a Unix socket's directory)
/// ```
/// `postgresql://` is the same. TLS is not used: name a database on this machine or a private
/// network.
public enum StoreLocation: Sendable {
    /// 5432: PostgreSQL's port, and the number in its socket's name, when the URL gives none.
    public static let defaultPort = 5432

    /// ``MemoryRequestStateStore``.
    case memory
    /// ``PostgresRequestStateStore`` on the database of this configuration.
    case postgres(PostgresClient.Configuration)

    /// The location `text`. Throws `invalidStore` naming what is wrong: not `memory`, a URL
    /// whose scheme is not `postgres` or `postgresql`, with no user, no database, or another
    /// query parameter than `host`.
    public init(_ text: String) throws(ServiceError) {
        if text == "memory" {
            self = .memory
            return
        }
        func refuse(_ what: String) -> ServiceError {
            ServiceError(.internalServerError, "invalidStore", "the store is \"memory\" or a postgres:// URL; this one \(what)")
        }
        guard let url = URLComponents(string: text), let scheme = url.scheme else {
            throw refuse("does not read as a URL")
        }
        guard scheme == "postgres" || scheme == "postgresql" else {
            throw refuse("has the scheme \"\(UntrustedText.escaped(scheme))\"")
        }
        guard let user = url.percentEncodedUser.flatMap({ $0.removingPercentEncoding }), !user.isEmpty else {
            throw refuse("names no user (postgres://USER@HOST/DATABASE)")
        }
        let database = String(url.path.drop { $0 == "/" })
        guard !database.isEmpty, !database.contains("/") else {
            throw refuse("names no database, or a path that is not one (postgres://USER@HOST/DATABASE)")
        }
        let password = url.percentEncodedPassword.flatMap { $0.removingPercentEncoding }
        var socketDirectory: String? = nil
        for item in url.queryItems ?? [] {
            guard item.name == "host", let value = item.value, value.hasPrefix("/") else {
                throw refuse("has a query parameter other than host=/socket/directory")
            }
            socketDirectory = value
        }
        if let socketDirectory {
            guard (url.host ?? "").isEmpty, url.port == nil else {
                throw refuse("names both a host and a socket directory")
            }
            self = .postgres(PostgresClient.Configuration(
                unixSocketPath: "\(socketDirectory)/.s.PGSQL.\(Self.defaultPort)", username: user, password: password, database: database))
        } else {
            guard let host = url.host, !host.isEmpty else {
                throw refuse("names no host (postgres://USER@HOST/DATABASE, or ?host=/socket/directory)")
            }
            self = .postgres(PostgresClient.Configuration(
                host: host, port: url.port ?? Self.defaultPort, username: user, password: password, database: database, tls: .disable))
        }
    }

    /// Whether `text` holds a password, which must not be given on a command line (others read
    /// it there).
    public static func holdsPassword(_ text: String) -> Bool {
        URLComponents(string: text)?.percentEncodedPassword.map { !$0.isEmpty } ?? false
    }
}
