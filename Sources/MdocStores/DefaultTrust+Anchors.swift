import MdocCrypto
import MdocFiles

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension DefaultTrust {
    /// The IACA roots a reader trusts when it is given none, read as `mdoc-reader` reads them:
    /// the files `MDOC_TRUST` names, else the certificates of ``UserDirectories/issuerTrust``
    /// (ISO/IEC 18013-5 9.3.3, the Annex B IACA profile).
    ///
    /// Throws `InputError` with code `InputError.Code.notATrustAnchor` when nothing names any
    /// root (the error says what to set), and as
    /// ``CertificateFiles/loadTrustAnchors(_:for:skipped:)`` does for what the files hold.
    public static func issuerAnchors(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(InputError) -> [Certificate] {
        let trust = issuers([], environment: environment)
        guard !trust.paths.isEmpty else {
            throw InputError(
                .notATrustAnchor, source: issuerVariable,
                "names no IACA root certificate and \(UserDirectories(environment: environment).issuerTrust) holds none: set it to the roots' files, or put them there")
        }
        return try CertificateFiles.loadTrustAnchors(trust.paths, for: .documentSigner) { _ in }
    }

    /// The reader roots a holder trusts when it is given none, read as `mdoc-holder` reads them:
    /// the files `MDOC_TRUST_READERS` names, else the certificates of
    /// ``UserDirectories/readerTrust`` (9.1.4, the Annex B reader authentication profile). Empty
    /// when nothing names any: every reader is then anonymous to the holder.
    ///
    /// Throws `InputError` as ``CertificateFiles/loadTrustAnchors(_:for:skipped:)`` does for
    /// what the files hold.
    public static func readerAnchors(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(InputError) -> [Certificate] {
        let trust = readers([], environment: environment)
        guard !trust.paths.isEmpty else { return [] }
        return try CertificateFiles.loadTrustAnchors(trust.paths, for: .readerAuthentication) { _ in }
    }
}
