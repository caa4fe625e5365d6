import MdocCBOR
import MdocCrypto
import MdocFiles

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads certificates for `--trust` and similar options: files holding PEM (one or more
/// certificates), DER, or hex DER, and directories of such files.
public enum CertificateFiles {
    /// The most certificate files one directory may contribute; a bound, so pointing `--trust` at
    /// a large folder by mistake fails clearly instead of reading it all.
    public static let maximumFilesPerDirectory = 1024

    /// All certificates in `paths`, in order (directory entries sorted by name).
    public static func load(_ paths: [String]) throws(InputError) -> [Certificate] {
        var certificates: [Certificate] = []
        for path in paths {
            if let files = try directoryFiles(path) {
                for file in files {
                    certificates += try loadFile(file.path)
                }
            } else {
                certificates += try loadFile(path)
            }
        }
        return certificates
    }

    /// The trust anchors in `paths`: the IACA certificates of `--trust` (`profile`
    /// `.documentSigner`) or the reader roots of `--trust-readers`
    /// (`.readerAuthentication`), read as ``load(_:)`` reads certificates.
    ///
    /// ISO/IEC 18013-5 Annex B makes every anchor a self-signed root, and only a self-signed
    /// certificate can end a path. A file named in `paths` that holds a certificate that is not
    /// self-signed (a document signer pinned in place of its IACA, for example) or a private key
    /// is an error that says what it holds and what to pass instead. In a directory (the PKI
    /// folder `mdoc-issuer pki` writes is the natural one to pass), files holding a private key
    /// and no certificate, certificates that are not self-signed, and files that hold no
    /// certificate at all (a README, credentials) are skipped: `skipped` is called once per
    /// such directory with a note naming them. A directory that holds no self-signed
    /// certificate is an error.
    public static func loadTrustAnchors(
        _ paths: [String], for profile: CertificateProfile, skipped: (String) -> Void
    ) throws(InputError) -> [Certificate] {
        var anchors: [Certificate] = []
        for path in paths {
            guard let files = try directoryFiles(path) else {
                let contents = try InputSource.load(path)
                guard !holdsOnlyPrivateKey(contents) else {
                    throw InputError(
                        .notATrustAnchor, source: path,
                        "holds a private key, not a certificate: pass the \(profile.rootName) certificate")
                }
                for certificate in try certificates(in: contents, path: path) {
                    if let problem = anchorProblem(certificate, for: profile) {
                        throw InputError(.notATrustAnchor, source: path, problem)
                    }
                    anchors.append(certificate)
                }
                continue
            }
            var found: [Certificate] = []
            var keyFiles: [String] = []
            var nonRootFiles: [String] = []
            var otherFiles: [String] = []
            var firstProblem: String? = nil
            for file in files {
                let contents: InputSource
                let fileCertificates: [Certificate]
                do {
                    contents = try InputSource.load(file.path)
                    if holdsOnlyPrivateKey(contents) {
                        keyFiles.append(file.name)
                        continue
                    }
                    fileCertificates = try certificates(in: contents, path: file.path)
                } catch {
                    otherFiles.append(file.name)
                    continue
                }
                for certificate in fileCertificates {
                    if let problem = anchorProblem(certificate, for: profile) {
                        if !nonRootFiles.contains(file.name) { nonRootFiles.append(file.name) }
                        firstProblem = firstProblem ?? "\(file.name): \(problem)"
                    } else {
                        found.append(certificate)
                    }
                }
            }
            guard !found.isEmpty else {
                throw InputError(
                    .notATrustAnchor, source: path,
                    "holds no self-signed \(profile.rootName) certificate" + (firstProblem.map { "; \($0)" } ?? ""))
            }
            var parts: [String] = []
            if !keyFiles.isEmpty {
                parts.append("private key\(keyFiles.count == 1 ? "" : "s") \(keyFiles.joined(separator: ", "))")
            }
            if !nonRootFiles.isEmpty {
                parts.append("certificates that are not self-signed roots \(nonRootFiles.joined(separator: ", "))")
            }
            if !otherFiles.isEmpty {
                parts.append("files that hold no certificate \(otherFiles.joined(separator: ", "))")
            }
            if !parts.isEmpty {
                skipped("\(path): skipped \(parts.joined(separator: "; "))")
            }
            anchors += found
        }
        return anchors
    }

    /// The certificates in one file.
    public static func loadFile(_ path: String) throws(InputError) -> [Certificate] {
        try certificates(in: try InputSource.load(path), path: path)
    }

    /// Why `certificate` cannot be an anchor of `profile` (it is not self-signed), naming what it
    /// is and what to pass instead; `nil` for a self-signed certificate.
    static func anchorProblem(_ certificate: Certificate, for profile: CertificateProfile) -> String? {
        guard !certificate.isSelfSigned else { return nil }
        let usages = certificate.extendedKeyUsage ?? []
        let kind: String
        if usages.contains(where: CertificateProfile.documentSigner.knownExtendedKeyUsageOIDs.contains) {
            kind = "a document signer certificate"
        } else if usages.contains(where: CertificateProfile.readerAuthentication.knownExtendedKeyUsageOIDs.contains) {
            kind = "a reader authentication certificate"
        } else if certificate.basicConstraints?.isCA == true {
            kind = "an intermediate CA certificate"
        } else {
            kind = "not self-signed"
        }
        let anchor: String
        switch profile {
        case .documentSigner: anchor = "an IACA root"
        case .readerAuthentication: anchor = "a reader root"
        case .vicalSigner: anchor = "a VICAL root"
        }
        return "\"\(certificate.subject)\" is \(kind), not \(anchor): pass the \(profile.rootName) that issued it (\"\(certificate.issuer)\")"
    }

    /// The files of the directory at `path`, sorted by name, hidden ones and subdirectories
    /// left out; `nil` when `path` is a file.
    private static func directoryFiles(_ path: String) throws(InputError) -> [(name: String, path: String)]? {
        switch DirectoryListing.kind(of: path) {
        case .missing:
            throw InputError(.unreadable, source: path, "no such file or directory")
        case .file:
            return nil
        case .folder:
            return try DirectoryListing.files(in: path, limit: maximumFilesPerDirectory)
        }
    }

    /// Whether `contents` is PEM text holding a private key (RFC 7468 labels "PRIVATE KEY",
    /// "ENCRYPTED PRIVATE KEY", and SEC 1's "EC PRIVATE KEY") and no certificate.
    private static func holdsOnlyPrivateKey(_ contents: InputSource) -> Bool {
        guard contents.encoding == .binary else { return false }
        let text = String(decoding: contents.bytes, as: UTF8.self)
        return text.contains(/-----BEGIN [A-Z ]*PRIVATE KEY-----/) && !text.contains("-----BEGIN CERTIFICATE-----")
    }

    /// The certificates of a file's contents.
    private static func certificates(in raw: InputSource, path: String) throws(InputError) -> [Certificate] {
        let text = String(decoding: raw.bytes, as: UTF8.self)
        do {
            if raw.encoding == .binary, text.contains("-----BEGIN CERTIFICATE-----") {
                let certificates = try Certificate.certificates(pemEncoded: text)
                guard !certificates.isEmpty else {
                    throw InputError(.unsupportedContent, source: path, "no certificate in the PEM text")
                }
                return certificates
            }
            return [try Certificate(derEncoded: raw.bytes)]
        } catch let error as CryptoError {
            throw InputError(.unsupportedContent, source: path, "not a usable certificate: \(error)")
        } catch let error as InputError {
            throw error
        } catch {
            throw InputError(.unsupportedContent, source: path, "\(error)")
        }
    }
}
