import Foundation
import MdocModel
import MdocOnline
import MdocSession
import OnlineVerifier
import Testing

/// What every `RequestStateStore` must do, checked the same way on each: a request is taken
/// once however many take it at once, a state of each protocol comes back as it was put, and
/// a purge deletes what expired and nothing else.
enum StoreContract {
    static let origin = "https://verifier.example"

    /// Checks `store`, which holds nothing yet.
    static func check(_ store: any RequestStateStore) async throws {
        let spec = DocRequestSpec(docType: DocType.mDL, nameSpaces: [NameSpace.mDL: ["age_over_18": false]])
        let now = Date()
        let pending = try DCAPIRequestState.make([spec], origin: origin, readerAuthentication: nil, now: now).state
        let expiring = try DCAPIRequestState.make([spec], origin: origin, readerAuthentication: nil, now: now, validity: .seconds(1)).state
        let openID4VP = try OpenID4VPRequestState.make(
            try DCQLQuery(specs: [spec]), responseMode: .digitalCredentialsAPIJWT, verifier: .origin(origin), now: now).state
        let id = RequestID.random()
        let other = RequestID.random()
        let third = RequestID.random()
        try await store.put(.annexC(pending), id: id)
        try await store.put(.annexC(expiring), id: other)
        try await store.put(.openID4VP(openID4VP), id: third)

        let takes = try await withThrowingTaskGroup(of: Bool.self) { takers in
            for _ in 0..<8 {
                takers.addTask { try await store.take(id) != nil }
            }
            return try await takers.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(takes == 1)

        let taken = try #require(try await store.take(third))
        #expect(taken.protocolName == RequestCreation.openID4VPProtocolName)
        #expect(taken.stateJSON == StoredRequest.openID4VP(openID4VP).stateJSON)
        #expect(try await store.take(third) == nil)

        #expect(try await store.purge(expiredBefore: expiring.expires) == 0)
        #expect(try await store.purge(expiredBefore: expiring.expires.addingTimeInterval(1)) == 1)
        #expect(try await store.take(other) == nil)
    }
}
