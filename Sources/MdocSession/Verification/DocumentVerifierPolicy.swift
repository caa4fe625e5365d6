/// A rule every Document of a DeviceResponse must meet, checked by a ``DeviceResponseVerifier``
/// (ISO/IEC 18013-5 9.3.1 and 9.1.3, and whatever an application requires besides).
///
/// A verifier runs its policies in order on each document; each reads what the document holds
/// and what the policies before it established from the ``DocumentVerification``, and records
/// its checks there. ``StandardDocumentPolicy`` is the standard's; an application adds its own
/// rules after it, or lists the standard's steps with one of them replaced, in a
/// ``DocumentPolicyBuilder`` block:
///
/// ```swift
/// let verifier = DeviceResponseVerifier(trustAnchors: iacas, sessionTranscript: transcript) {
///     StandardDocumentPolicy()
///     IACACountryPolicy()
///     RevocationPolicy(statusLists)
/// }
/// ```
///
/// A policy records a check for every outcome, passed, failed or skipped, so that the report
/// says what was and was not checked (docs/architecture.md rule 5). It never reads a clock: the
/// verification time is ``DocumentVerification/time``.
public protocol DocumentVerifierPolicy: Sendable {
    /// Checks the document of `verification` and records each outcome with
    /// ``DocumentVerification/record(_:)``.
    func evaluate(_ verification: inout DocumentVerification)
}
