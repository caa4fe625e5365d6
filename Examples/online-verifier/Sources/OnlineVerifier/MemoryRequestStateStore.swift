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
    /// The most requests kept at once.
    public nonisolated let capacity: Int

    /// An empty store keeping at most `capacity` requests.
    public init(capacity: Int = ServiceLimits.maximumMemoryRequestCount) {
        self.capacity = capacity
    }

    /// Keeps `request` under `id`; throws `storeFull` (503) when ``capacity`` requests are
    /// kept already.
    public func put(_ request: StoredRequest, id: RequestID) throws(ServiceError) {
        guard requests.count < capacity else {
            throw ServiceError(
                .serviceUnavailable, "storeFull", "\(capacity) requests are pending, the most this verifier keeps; try again later")
        }
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
