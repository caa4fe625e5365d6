import Logging
import PostgresNIO

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A ``RequestStateStore`` in a PostgreSQL table, which every instance of the service that
/// serves one site shares: an answer delivered to any instance finds the request, and only one
/// delivery, to whichever instance, gets it.
///
/// The table (``tableName``) has one row per request: its id, protocol, state JSON and expiry.
/// ``take(_:)`` is one statement, `DELETE ... WHERE id = $1 RETURNING ...`: PostgreSQL deletes a
/// row once, so of concurrent deliveries one gets the row and the others none. The state JSON
/// holds the request's private key in the clear: the database is as private as the key.
public final class PostgresRequestStateStore: RequestStateStore {
    /// The table the requests are kept in, made by ``prepare()`` when missing.
    public static let tableName = "online_verifier_requests"

    private let client: PostgresClient
    private let logger: Logger

    /// A store in the database `configuration` names; the client connects when ``run()`` runs.
    public init(configuration: PostgresClient.Configuration, logger: Logger) {
        client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.logger = logger
    }

    /// Runs the connection pool until the task is cancelled: the store answers only while this
    /// runs.
    public func run() async {
        await client.run()
    }

    /// Makes the table when it is missing.
    public func prepare() async throws(ServiceError) {
        try await perform("create the table") {
            _ = try await client.query(
                """
                CREATE TABLE IF NOT EXISTS \(unescaped: Self.tableName) (
                    id text PRIMARY KEY, protocol text NOT NULL, state text NOT NULL, expires timestamptz NOT NULL)
                """, logger: logger)
        }
    }

    public func put(_ request: StoredRequest, id: RequestID) async throws(ServiceError) {
        try await perform("keep a request") {
            _ = try await client.query(
                "INSERT INTO \(unescaped: Self.tableName) (id, protocol, state, expires) VALUES (\(id.text), \(request.protocolName), \(request.stateJSON), \(request.expires))",
                logger: logger)
        }
    }

    public func take(_ id: RequestID) async throws(ServiceError) -> StoredRequest? {
        let row = try await perform("take a request") { () async throws -> (String, String)? in
            let rows = try await client.query(
                "DELETE FROM \(unescaped: Self.tableName) WHERE id = \(id.text) RETURNING protocol, state", logger: logger)
            for try await row in rows.decode((String, String).self) {
                return row
            }
            return nil
        }
        guard let (protocolName, state) = row else { return nil }
        return try StoredRequest(protocolName: protocolName, stateJSON: state)
    }

    public func purge(expiredBefore now: Date) async throws(ServiceError) -> Int {
        try await perform("purge expired requests") { () async throws -> Int in
            let rows = try await client.query("DELETE FROM \(unescaped: Self.tableName) WHERE expires < \(now) RETURNING id", logger: logger)
            var count = 0
            for try await _ in rows {
                count += 1
            }
            return count
        }
    }

    /// Runs `body`, a database operation doing `what`; its failure becomes `storeUnavailable`
    /// (503), the database's error in the log only (PostgresNIO's description of it, which
    /// leaves out the query's values: a state's key never reaches the log).
    private func perform<T>(_ what: String, _ body: () async throws -> T) async throws(ServiceError) -> T {
        do {
            return try await body()
        } catch {
            logger.error("the PostgreSQL store could not \(what): \(String(describing: error))")
            throw ServiceError(.serviceUnavailable, "storeUnavailable", "the request store could not \(what); try again later")
        }
    }
}
