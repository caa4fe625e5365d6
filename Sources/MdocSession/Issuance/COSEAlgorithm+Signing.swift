import MdocCOSE
import MdocCrypto

extension COSEAlgorithm {
    /// The signature algorithm a key on `curve` signs with (ISO/IEC 18013-5 9.1.5.2 and Table 22;
    /// the table on ``COSEAlgorithm``): ES256 for P-256, brainpoolP256r1 and brainpoolP320r1,
    /// ES384 for P-384 and brainpoolP384r1, ES512 for P-521 and brainpoolP512r1, EdDSA for
    /// Ed25519 and Ed448; `nil` for X25519 and X448, which only agree keys.
    static func signatureAlgorithm(forKeyOn curve: Curve) -> COSEAlgorithm? {
        allCases.first { $0.isSignatureAlgorithm && $0.isSuitable(for: curve) }
    }
}
