import ArgumentParser
import MdocCrypto
import MdocFiles
import MdocModel
import MdocStores
import MdocText

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The options `status-list` and `identifier-list` share: the PKI whose document signer signs
/// the token, its `sub`, `iat`, `exp` and `ttl`, and where it goes.
struct StatusTokenOptions: ParsableArguments {
    @Option(help: "The PKI directory made by `mdoc-issuer pki`.", completion: .directory)
    var pki: String

    @Option(help: "The uri the list is published at: the token's sub.")
    var uri: String

    @Option(name: .customLong("issued-at"), help: "The token's iat, RFC 3339 (default: now).")
    var issuedAt: String?

    @Option(name: .customLong("valid-days"), help: "How many days after iat the token expires (exp).")
    var validDays: Int = 1

    @Option(help: "How many seconds a reader may keep the token before fetching it again (ttl).")
    var ttl: UInt64 = 43_200

    @Option(help: "The token file to write.", completion: .file())
    var out: String

    @Flag(help: "Replace an existing --out file.")
    var force = false

    func validate() throws {
        guard (1...PKI.maximumValidDays).contains(validDays) else { throw ValidationError("--valid-days must be 1 to \(PKI.maximumValidDays)") }
        guard ttl > 0 else { throw ValidationError("--ttl must be at least 1 second") }
        if let issuedAt, (try? TDate(text: issuedAt)) == nil {
            throw ValidationError("--issued-at \(issuedAt): not an RFC 3339 date-time (for example 2021-01-01T00:00:00Z)")
        }
    }

    /// `iat` and `exp`, in seconds since the epoch.
    var times: (issuedAt: Int64, expiration: Int64) {
        let issued = issuedAt.flatMap { try? TDate(text: $0) }?.date ?? Date()
        let iat = Int64(issued.timeIntervalSince1970.rounded(.down))
        return (iat, iat + Int64(validDays) * 86_400)
    }

    /// The document signer of `--pki` (ds.pem) and its key (ds-key.pem): the token's signer, its
    /// certificate the token's x5chain, so that a reader binds the token to the documents'
    /// issuer.
    func signer() throws(ProgramFailure) -> (Certificate, PrivateKey) {
        let signer: Certificate
        let key: PrivateKey
        do {
            let certificates = try CertificateFiles.loadFile(pki + "/ds.pem")
            guard certificates.count == 1, let only = certificates.first else {
                throw ProgramFailure(.badTrustInput, "--pki \(pki)/ds.pem: holds \(certificates.count) certificates, expected one")
            }
            signer = only
            key = try KeyFiles.loadPrivateKey(pki + "/ds-key.pem")
        } catch let failure as ProgramFailure {
            throw failure
        } catch {
            throw ProgramFailure(.badTrustInput, "--pki \(error)")
        }
        guard key.publicKey == signer.publicKey else {
            throw ProgramFailure(.badTrustInput, "--pki \(pki): ds-key.pem is not the key of ds.pem")
        }
        return (signer, key)
    }
}
