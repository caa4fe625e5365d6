import ArgumentParser
import MdocCrypto

/// The curves `--curve` accepts (`mdoc-issuer pki`, `mdoc-holder key generate`): those of
/// ISO/IEC 18013-5 Table 22 that sign.
package enum CurveName: String, ExpressibleByArgument, CaseIterable {
    case p256, p384, p521, brainpoolP256r1, brainpoolP320r1, brainpoolP384r1, brainpoolP512r1, ed25519, ed448

    /// The curve of this name.
    package var curve: Curve {
        switch self {
        case .p256: return .p256
        case .p384: return .p384
        case .p521: return .p521
        case .brainpoolP256r1: return .brainpoolP256r1
        case .brainpoolP320r1: return .brainpoolP320r1
        case .brainpoolP384r1: return .brainpoolP384r1
        case .brainpoolP512r1: return .brainpoolP512r1
        case .ed25519: return .ed25519
        case .ed448: return .ed448
        }
    }
}
