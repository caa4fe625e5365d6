import MdocCBOR
import MdocCOSE

/// A VICAL as a provider publishes it (ISO/IEC 18013-5 Annex C.1.7): a COSE_Sign1 whose payload
/// is the encoded ``VICAL`` and whose `x5chain` carries the VICAL signer's certificates.
///
/// The message is kept as received: the signature covers ``message``'s payload bytes, which
/// ``vical`` was decoded from and which are never encoded again. Tag 18 is accepted and not
/// required (published lists come both ways).
public struct SignedVICAL: Sendable {
    /// The most bytes a signed VICAL may have here.
    public static let maximumSize = 16 * 1024 * 1024
    /// The decoding limits of a signed VICAL: ``maximumSize`` bytes, and items enough for
    /// ``VICAL/maximumCertificateInfos`` entries with every field.
    public static let limits = CBORLimits(
        maximumDepth: 16, maximumItemCount: VICAL.maximumCertificateInfos * 48, maximumInputSize: maximumSize)

    /// The COSE_Sign1 as received.
    public let message: COSESign1
    /// The list its payload holds.
    public let vical: VICAL
    /// The message's bytes: as received, for a decoded VICAL.
    public let encoded: [UInt8]

    /// Decodes a signed VICAL; the error names what is wrong and where (the payload's paths
    /// start at the payload).
    public init(encoded: [UInt8]) throws(CBORError) {
        guard encoded.count <= Self.maximumSize else {
            throw CBORError(
                .inputTooLarge, "the signed VICAL has \(encoded.count) bytes, more than the maximum \(Self.maximumSize)", path: .root)
        }
        let message = try COSESign1(encoded: CBORBytes(encoded), limits: Self.limits)
        guard let payload = message.payload else {
            throw CBORError(.missingValue, "the VICAL's COSE_Sign1 has no payload (it is detached)", path: .root.appending(index: 2))
        }
        self.message = message
        vical = try VICAL(encoded: payload, limits: Self.limits)
        self.encoded = encoded
    }
}
