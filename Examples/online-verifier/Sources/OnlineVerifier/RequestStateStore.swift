#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where the verifier keeps its requests between `POST /requests` and the answer.
///
/// ``take(_:)`` is the single-use guarantee: it removes the request and returns it in one
/// atomic step, so that of two deliveries of answers to one request, to one instance or to
/// several sharing the store, exactly one gets the request and every other gets `nil`.
public protocol RequestStateStore: Sendable {
    /// Keeps `request` under `id` until it is taken or purged after ``StoredRequest/expires``.
    func put(_ request: StoredRequest, id: RequestID) async throws(ServiceError)

    /// Removes the request kept under `id` and returns it, expired or not; `nil` when there is
    /// none (never made, taken already, or purged).
    func take(_ id: RequestID) async throws(ServiceError) -> StoredRequest?

    /// Deletes every request that expired before `now`; returns how many.
    func purge(expiredBefore now: Date) async throws(ServiceError) -> Int
}
