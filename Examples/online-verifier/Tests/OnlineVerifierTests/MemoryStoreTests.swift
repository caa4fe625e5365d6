import Foundation
import MdocModel
import MdocOnline
import MdocSession
import OnlineVerifier
import Testing

/// The memory store's single use and purge.
@Suite("online verifier, memory store")
struct MemoryStoreTests {
    @Test("take is single use under concurrency, a state of either protocol comes back as put, and purge deletes only what expired")
    func takeAndPurge() async throws {
        try await StoreContract.check(MemoryRequestStateStore())
    }

    @Test("capacity: the last request that fits is kept, the next refused with storeFull until one is taken")
    func capacity() async throws {
        let store = MemoryRequestStateStore(capacity: 2)
        #expect(MemoryRequestStateStore().capacity == ServiceLimits.maximumMemoryRequestCount)
        let spec = DocRequestSpec(docType: DocType.mDL, nameSpaces: [NameSpace.mDL: ["age_over_18": false]])
        let state = try DCAPIRequestState.make([spec], origin: "https://verifier.example", readerAuthentication: nil, now: Date()).state
        let first = RequestID.random()
        try await store.put(.annexC(state), id: first)
        try await store.put(.annexC(state), id: RequestID.random())
        await #expect(throws: ServiceError.self) { try await store.put(.annexC(state), id: RequestID.random()) }
        do {
            try await store.put(.annexC(state), id: RequestID.random())
        } catch {
            #expect(error.code == "storeFull")
            #expect(error.status == .serviceUnavailable)
        }
        #expect(try await store.take(first) != nil)
        try await store.put(.annexC(state), id: RequestID.random())
    }

    @Test("store locations: memory and postgres URLs read, others are refused naming why")
    func locations() throws {
        guard case .memory = try StoreLocation("memory") else { Issue.record("memory"); return }
        guard case .postgres(let tcp) = try StoreLocation("postgres://verifier@db.internal:6543/verifier") else { Issue.record("tcp"); return }
        #expect(tcp.host == "db.internal")
        #expect(tcp.port == 6543)
        #expect(tcp.username == "verifier")
        #expect(tcp.database == "verifier")
        guard case .postgres(let socket) = try StoreLocation("postgresql://verifier@/verifier?host=/run/postgresql") else { Issue.record("socket"); return }
        #expect(socket.unixSocketPath == "/run/postgresql/.s.PGSQL.\(StoreLocation.defaultPort)")
        for (text, why) in [
            ("mysql://u@h/d", "scheme"), ("postgres://h/d", "no user"), ("postgres://u@h/", "no database"),
            ("postgres://u@h/d?sslmode=require", "query parameter"), ("postgres://u@/d", "no host"),
        ] {
            #expect(throws: ServiceError.self, "\(text)") { try StoreLocation(text) }
            do {
                _ = try StoreLocation(text)
            } catch {
                #expect(error.reason.contains(why), "\(text): \(error.reason)")
            }
        }
        #expect(StoreLocation.holdsPassword("postgres://u:secret@h/d"))
        #expect(!StoreLocation.holdsPassword("postgres://u@h/d"))
    }
}
