#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A ``RequestStateStore`` in this process's memory: an actor, so that ``take(_:)`` is one step
/// no other call interleaves with. Its requests are lost when the process ends, and an answer
/// delivered to another instance of the service does not find them: one instance only.
public actor MemoryRequestStateStore: RequestStateStore {
    private var requests: [RequestID: StoredRequest] = [:]

    /// An empty store.
    public init() {}

    public func put(_ request: StoredRequest, id: RequestID) throws(ServiceError) {
        requests[id] = request
    }

    public func take(_ id: RequestID) throws(ServiceError) -> StoredRequest? {
        requests.removeValue(forKey: id)
    }

    public func purge(expiredBefore now: Date) throws(ServiceError) -> Int {
        let expired = requests.filter { $0.value.expires < now }.keys
        for id in expired {
            requests[id] = nil
        }
        return expired.count
    }
}
