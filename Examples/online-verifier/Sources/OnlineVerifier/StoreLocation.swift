/// Where the verifier keeps its requests: `memory`, this process (one instance).
public enum StoreLocation: Sendable {
    /// ``MemoryRequestStateStore``.
    case memory

    /// The location `text`. Throws `invalidStore` for anything but `memory`.
    public init(_ text: String) throws(ServiceError) {
        guard text == "memory" else {
            throw ServiceError(.internalServerError, "invalidStore", "the store is \"memory\"")
        }
        self = .memory
    }
}
