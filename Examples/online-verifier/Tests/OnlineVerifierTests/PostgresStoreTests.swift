import Foundation
import Logging
import MdocModel
import MdocOnline
import MdocSession
import OnlineVerifier
import Testing

/// The PostgreSQL store on a real PostgreSQL the test starts and stops: two instances of the
/// service sharing it, and the store's single use under concurrent takes.
@Suite("online verifier, PostgreSQL store", .serialized)
struct PostgresStoreTests {
    static let origin = "https://verifier.example"

    /// Runs `body` with a PostgreSQL of its own, stopped and deleted afterwards.
    private func withPostgres(_ body: (PostgresServer) async throws -> Void) async throws {
        let server = try await PostgresServer.start()
        do {
            try await body(server)
            server.stop()
        } catch {
            server.stop()
            throw error
        }
    }

    @Test("two instances on one database: an answer of either protocol verifies at either, and is taken by one of them only")
    func twoInstances() async throws {
        try await withPostgres { postgres in
            let store = try StoreLocation(postgres.storeURL)
            try await RunningVerifier.with(store: store) { a in
                try await RunningVerifier.with(store: store) { b in
                    // Made on A, answered to B: the state is shared.
                    let first = try await a.makeRequest(origin: Self.origin)
                    let firstResponse = try Holder.respond(to: first.request, origin: Self.origin)
                    let atB = try await b.post("/requests/\(first.id)/response", firstResponse)
                    #expect(atB.status == 200)
                    #expect(atB.json?["outcome"] as? String == "verified")
                    // The same answer replayed to A, which never saw it: refused.
                    let replayAtA = try await a.post("/requests/\(first.id)/response", firstResponse)
                    #expect(replayAtA.status == 404)
                    #expect(replayAtA.error == "requestNotPending")

                    // Made and answered on A, then replayed to B: refused.
                    let second = try await a.makeRequest(origin: Self.origin)
                    let secondResponse = try Holder.respond(to: second.request, origin: Self.origin)
                    #expect(try await a.post("/requests/\(second.id)/response", secondResponse).status == 200)
                    let replayAtB = try await b.post("/requests/\(second.id)/response", secondResponse)
                    #expect(replayAtB.status == 404)
                    #expect(replayAtB.error == "requestNotPending")

                    // An OpenID4VP request, its state (and private key) kept under its own
                    // protocol tag: made on B, answered to A, replayed to B.
                    let third = try await b.makeRequest(["protocol": "openid4vp", "responseMode": "dc_api.jwt", "origin": Self.origin])
                    let thirdResponse = try Holder.respond(to: third.request, origin: Self.origin)
                    let atA = try await a.post("/requests/\(third.id)/response", thirdResponse)
                    #expect(atA.json?["outcome"] as? String == "verified")
                    #expect((atA.json?["online"] as? [String: Any])?["protocol"] as? String == "openid4vp-dcapi")
                    #expect(try await b.post("/requests/\(third.id)/response", thirdResponse).error == "requestNotPending")
                }
            }
        }
    }

    @Test("an expired request in the database is refused with 410")
    func expired() async throws {
        try await withPostgres { postgres in
            let clock = TestClock()
            try await RunningVerifier.with(store: try StoreLocation(postgres.storeURL), clock: clock) { verifier in
                let (id, request) = try await verifier.makeRequest(origin: Self.origin, validity: 5)
                let response = try Holder.respond(to: request, origin: Self.origin)
                clock.advance(by: 6)
                let answer = try await verifier.post("/requests/\(id)/response", response)
                #expect(answer.status == 410)
                #expect(answer.error == "requestExpired")
            }
        }
    }

    @Test("take is single use under concurrency, a state of either protocol comes back as put, and purge deletes only what expired")
    func takeAndPurge() async throws {
        try await withPostgres { postgres in
            guard case .postgres(let configuration) = try StoreLocation(postgres.storeURL) else {
                Issue.record("a postgres URL read as another store")
                return
            }
            let store = PostgresRequestStateStore(configuration: configuration, logger: RunningVerifier.logger)
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { await store.run() }
                try await store.prepare()
                try await StoreContract.check(store)
                group.cancelAll()
            }
        }
    }
}
