import MdocCBOR
import MdocCOSE

/// `Security = [int, EDeviceKeyBytes]`: the cipher suite and the mdoc's ephemeral public key in a
/// DeviceEngagement (ISO/IEC 18013-5 8.2.1.1, 9.1.1.4).
///
/// `EDeviceKeyBytes = #6.24(bstr .cbor EDeviceKey)` keeps the received bytes: they are part of
/// the SessionTranscript through DeviceEngagementBytes.
public struct Security: CBORRepresentable {
    /// The cipher suite identifier (1 in 18013-5:2021).
    public var cipherSuiteIdentifier: CipherSuiteIdentifier
    /// EDeviceKeyBytes: the ephemeral device key as a COSE_Key, with its exact bytes.
    public var eDeviceKeyBytes: EmbeddedCBOR<COSEKey>

    /// Builds the structure from its parts.
    public init(cipherSuiteIdentifier: CipherSuiteIdentifier = .suite1, eDeviceKeyBytes: EmbeddedCBOR<COSEKey>) {
        self.cipherSuiteIdentifier = cipherSuiteIdentifier
        self.eDeviceKeyBytes = eDeviceKeyBytes
    }

    public init(cbor: CBOR, at path: CBORPath) throws(CBORError) {
        let array = try cbor.array(at: path)
        guard array.count == 2 else {
            throw CBORError(.invalidValue, "Security must have 2 elements, found \(array.count)", path: path)
        }
        cipherSuiteIdentifier = CipherSuiteIdentifier(rawValue: try array[0].int(at: path.appending(index: 0)))
        eDeviceKeyBytes = try EmbeddedCBOR(cbor: array[1], at: path.appending(index: 1))
    }

    public var cbor: CBOR {
        .array([CBOR(cipherSuiteIdentifier.rawValue), eDeviceKeyBytes.cbor])
    }
}
