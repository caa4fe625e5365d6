/// Says whether a document or the certificates that vouch for it have been revoked, for a
/// ``RevocationPolicy``: the hook through which an application brings the status information
/// it holds (certificate revocation lists of the IACAs, status lists an issuer publishes).
///
/// The verifier fetches nothing and waits for nothing: a checker answers from what the
/// application fetched beforehand, and says ``RevocationStatus/unknown(_:)`` when that does not
/// cover the query (a list not fetched yet, or too old).
///
/// ```swift
/// struct RevokedSerials: RevocationChecker {
///     let serials: Set<String>       // from the IACA's CRL, fetched by the application
///
///     func status(of query: RevocationQuery) -> RevocationStatus {
///         let signer = query.certificatePath[0]
///         return serials.contains(signer.serialNumber)
///             ? .revoked("serial \(signer.serialNumber) is on the CRL")
///             : .good("not on the CRL")
///     }
/// }
/// ```
public protocol RevocationChecker: Sendable {
    /// The revocation status of the document and certificates `query` describes.
    func status(of query: RevocationQuery) -> RevocationStatus
}
