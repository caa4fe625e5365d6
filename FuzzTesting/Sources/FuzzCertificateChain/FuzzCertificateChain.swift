import FuzzSupport
import MdocCrypto

/// Certificate chains as they arrive in x5chain (ISO/IEC 18013-5 9.3.3, Annex B): up to four
/// length-prefixed DER certificates, walked and parsed, and validated against the Annex D IACA as
/// a document signer chain and against the Annex D reader root as a reader authentication chain.
/// A leaf the validator accepts on its own (the one-hop path, decided without OpenSSL's path
/// builder) must be accepted with the same checks when OpenSSL builds the path: with the anchor
/// twice more in the chain, the validator hands it to `X509_verify_cert`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCertificateChain(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let (issuer, reader) = (issuerValidator, readerValidator)
    let chain = FuzzInput.parts(of: FuzzInput.bytes(data, size), limit: 4).compactMap { try? Certificate(derEncoded: $0) }
    guard let leaf = chain.first else { return 0 }
    for certificate in chain { _ = certificate.description }
    _ = issuer.validate(chain: chain, profile: .documentSigner, at: AnnexD.time)
    _ = reader.validate(chain: chain, profile: .readerAuthentication, at: AnnexD.time)
    for (validator, anchor, profile) in [
        (issuer, AnnexD.iaca, CertificateProfile.documentSigner), (reader, AnnexD.readerRoot, .readerAuthentication),
    ] {
        let alone = validator.validate(chain: [leaf], profile: profile, at: AnnexD.time)
        guard alone.isValid else { continue }
        let built = validator.validate(chain: [leaf, anchor, anchor], profile: profile, at: AnnexD.time)
        precondition(
            built.isValid && built.path == alone.path && built.passedChecks == alone.passedChecks,
            "the one-hop path is valid but OpenSSL's path is not: \(built)")
    }
    return 0
}

private let issuerValidator = CertificateChainValidator(trustAnchors: [AnnexD.iaca])
private let readerValidator = CertificateChainValidator(trustAnchors: [AnnexD.readerRoot])
