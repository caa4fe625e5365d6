import FuzzSupport
import MdocCrypto

/// Certificate chains as they arrive in x5chain (ISO/IEC 18013-5 9.3.3, Annex B): up to four
/// length-prefixed DER certificates, parsed and validated against the Annex D IACA as a document
/// signer chain and against the Annex D reader root as a reader authentication chain.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCertificateChain(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let (issuer, reader) = (issuerValidator, readerValidator)
    let chain = FuzzInput.parts(of: FuzzInput.bytes(data, size), limit: 4).compactMap { try? Certificate(derEncoded: $0) }
    guard !chain.isEmpty else { return 0 }
    for certificate in chain { _ = certificate.description }
    _ = issuer.validate(chain: chain, profile: .documentSigner, at: AnnexD.time)
    _ = reader.validate(chain: chain, profile: .readerAuthentication, at: AnnexD.time)
    return 0
}

private let issuerValidator = CertificateChainValidator(trustAnchors: [AnnexD.iaca])
private let readerValidator = CertificateChainValidator(trustAnchors: [AnnexD.readerRoot])
