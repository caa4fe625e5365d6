/// The checks ISO/IEC 18013-5 requires of every document of a DeviceResponse, in the order of
/// 9.3.1 and 9.1.3: what a ``DeviceResponseVerifier`` checks unless it is given other policies.
///
/// 1. ``DocumentSignerPolicy``: the document signer chains to a trust anchor under the Annex B
///    profile, with an extended key usage its doc type's rule accepts (9.3.3).
/// 2. ``IssuerSignaturePolicy``: the IssuerAuth signature verifies with its key (9.1.2.4).
/// 3. ``DocTypePolicy``: the MSO is for the document's doc type (step 4); an MSO that does not
///    decode is reported here, and no check needing it is made.
/// 4. ``MSOValidityPolicy``: the MSO is valid at the verification time (step 5).
/// 5. ``ValueDigestPolicy``: the digest algorithm, and each returned element's digest (step 3).
/// 6. ``DeviceAuthenticationPolicy``: the DeviceSignature or DeviceMac (9.1.3).
/// 7. ``KeyAuthorizationPolicy``: device-signed elements are authorised (9.1.2.4).
///
/// To replace one step, list the others with a policy of your own in its place:
///
/// ```swift
/// DeviceResponseVerifier(trustAnchors: iacas, sessionTranscript: transcript) {
///     DocumentSignerPolicy.standard
///     IssuerSignaturePolicy()
///     DocTypePolicy()
///     ArchiveValidityPolicy()          // an application's own, in place of MSOValidityPolicy
///     ValueDigestPolicy()
///     DeviceAuthenticationPolicy()
///     KeyAuthorizationPolicy()
/// }
/// ```
public struct StandardDocumentPolicy: DocumentVerifierPolicy {
    /// The issuer profile per doc type.
    public var documentSigners: DocumentSignerPolicy

    /// The standard checks, document signers checked under `documentSigners`.
    public init(documentSigners: DocumentSignerPolicy = .standard) {
        self.documentSigners = documentSigners
    }

    /// Runs the seven policies in order.
    public func evaluate(_ verification: inout DocumentVerification) {
        documentSigners.evaluate(&verification)
        IssuerSignaturePolicy().evaluate(&verification)
        DocTypePolicy().evaluate(&verification)
        MSOValidityPolicy().evaluate(&verification)
        ValueDigestPolicy().evaluate(&verification)
        DeviceAuthenticationPolicy().evaluate(&verification)
        KeyAuthorizationPolicy().evaluate(&verification)
    }
}
