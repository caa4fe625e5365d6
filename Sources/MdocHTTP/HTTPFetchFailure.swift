/// What an ``HTTPFetchError`` records beside its code and reason.
public struct HTTPFetchFailure: Sendable, Equatable {
    /// The URI asked for, as given (not escaped).
    public var uri: String
    /// For `httpStatus`: the final response's status code; nil otherwise.
    public var statusCode: Int?

    /// A failure fetching `uri`, with the final response's `statusCode` when it matters.
    public init(uri: String, statusCode: Int? = nil) {
        self.uri = uri
        self.statusCode = statusCode
    }
}
