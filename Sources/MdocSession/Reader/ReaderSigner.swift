import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel

/// The key and certificates the reader signs each DocRequest with (ISO/IEC 18013-5 9.1.4).
struct ReaderSigner: Sendable {
    private let key: PrivateKey
    private let algorithm: COSEAlgorithm
    private let x5chain: CBOR

    /// A signer with `key`, which must be the key of `chain`'s first certificate and able to
    /// sign (ES256, ES384, ES512 or EdDSA by its curve).
    init(key: PrivateKey, chain: [Certificate]) throws(SessionError) {
        guard let leaf = chain.first else {
            throw SessionError(.messageConstructionFailed, "reader authentication needs the reader certificate chain")
        }
        guard leaf.publicKey == key.publicKey else {
            throw SessionError(.messageConstructionFailed, "the reader key is not the key of \"\(leaf.subject)\"")
        }
        guard let algorithm = COSEAlgorithm.signatureAlgorithm(forKeyOn: key.curve) else {
            throw SessionError(.messageConstructionFailed, "a \(key.curve) key cannot sign reader authentication")
        }
        self.key = key
        self.algorithm = algorithm
        self.x5chain = COSEHeaders.x5chainValue(chain.map(\.derRepresentation))
    }

    /// ReaderAuth: a COSE_Sign1 with detached payload ReaderAuthenticationBytes, built around
    /// `transcript` and `itemsRequest` as sent, and the reader chain in the unprotected x5chain
    /// header.
    func readerAuth(for itemsRequest: EmbeddedCBOR<ItemsRequest>, transcript: SessionTranscriptBinding) throws(SessionError) -> COSESign1 {
        var headers = CBORMap()
        headers.append(CBOR(COSEHeaders.Label.x5chain), x5chain)
        do {
            return try COSESign1.sign(
                payload: transcript.readerAuthenticationBytes(itemsRequestBytes: itemsRequest),
                detached: true, algorithm: algorithm, key: key, unprotectedHeaders: headers)
        } catch {
            throw SessionError(.messageConstructionFailed, "signing the reader authentication failed: \(error)")
        }
    }
}
