import Hummingbird
import Logging
import MdocCrypto
import NIOCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The online verifier running: its store (and, for PostgreSQL, the connection pool), the
/// purge of expired requests every ``ServiceLimits/purgeInterval``, and the HTTP server of
/// ``VerifierService``, until the task running ``run(onServerRunning:)`` is cancelled or the
/// process gets SIGTERM or SIGINT.
public struct VerifierServer: Sendable {
    /// The address and port to listen on; port 0 takes a free port.
    public let host: String
    /// The port; 0 for any free one.
    public let port: Int
    /// Where requests are kept.
    public let storeLocation: StoreLocation
    /// The IACA certificates the documents' signers must chain to.
    public let trustAnchors: [Certificate]
    /// The key and chain that sign each DocRequest, or `nil`.
    public let readerAuthentication: (key: PrivateKey, chain: [Certificate])?
    /// The URL at which wallets reach the service (``VerifierService/publicURL``), or `nil`.
    public let publicURL: String?
    /// The current time.
    public let now: @Sendable () -> Date
    private let logger: Logger

    /// A server on `host`:`port` with these settings.
    public init(
        host: String, port: Int, storeLocation: StoreLocation, trustAnchors: [Certificate],
        readerAuthentication: (key: PrivateKey, chain: [Certificate])?, publicURL: String? = nil, logger: Logger,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.host = host
        self.port = port
        self.storeLocation = storeLocation
        self.trustAnchors = trustAnchors
        self.readerAuthentication = readerAuthentication
        self.publicURL = publicURL
        self.logger = logger
        self.now = now
    }

    /// `text` as a ``publicURL``: an `https` or `http` URL with a host and no query or
    /// fragment, its trailing `/`s removed; `nil` when it is not one.
    public static func publicURL(_ text: String) -> String? {
        guard let scheme = ["https://", "http://"].first(where: text.hasPrefix) else { return nil }
        var url = Substring(text)
        while url.hasSuffix("/") { url = url.dropLast() }
        let rest = url.dropFirst(scheme.count)
        guard !rest.isEmpty, !rest.hasPrefix("/"),
              !rest.contains(where: { "?#".contains($0) || $0.isWhitespace || $0.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } })
        else { return nil }
        return String(url)
    }

    /// Runs the server; `onServerRunning` gets the port it listens on once it does.
    public func run(onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        switch storeLocation {
        case .memory:
            try await serve(store: MemoryRequestStateStore(), onServerRunning: onServerRunning)
        case .postgres(let configuration):
            let store = PostgresRequestStateStore(configuration: configuration, logger: logger)
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { await store.run() }
                try await store.prepare()
                try await serve(store: store, onServerRunning: onServerRunning)
                group.cancelAll()
            }
        }
    }

    private func serve(store: any RequestStateStore, onServerRunning: @escaping @Sendable (Int) async -> Void) async throws {
        let service = VerifierService(
            trustAnchors: trustAnchors, readerAuthentication: readerAuthentication, store: store, publicURL: publicURL, logger: logger,
            now: now)
        let application = Application(
            router: service.router(), configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) }, logger: logger)
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await purge(store) }
            try await application.runService()
            group.cancelAll()
        }
    }

    /// Deletes the expired requests every ``ServiceLimits/purgeInterval`` until cancelled; a
    /// failed purge is logged and tried again at the next.
    private func purge(_ store: any RequestStateStore) async {
        while true {
            do {
                try await Task.sleep(for: ServiceLimits.purgeInterval)
            } catch {
                return
            }
            do {
                let count = try await store.purge(expiredBefore: now())
                if count > 0 { logger.info("purged \(count) expired requests") }
            } catch {
                logger.error("the purge of expired requests failed: \(error)")
            }
        }
    }
}
