import MdocCBOR
import MdocCOSE

/// `DeviceAuth = {"deviceSignature": DeviceSignature} / {"deviceMac": DeviceMac}` (ISO/IEC
/// 18013-5 8.3.2.1.2.2, 9.1.3): how the mdoc authenticates DeviceAuthenticationBytes, as a
/// COSE_Sign1 or a COSE_Mac0 with detached payload.
public enum DeviceAuth: CBORRepresentable {
    /// DeviceSignature: a COSE_Sign1 by the MSO's device key (9.1.3.6).
    case deviceSignature(COSESign1)
    /// DeviceMac: a COSE_Mac0 with EMacKey, HMAC-SHA-256 (9.1.3.5).
    case deviceMac(COSEMac0)

    public init(cbor: CBOR, at path: CBORPath) throws(CBORError) {
        let map = try cbor.map(at: path)
        let signature = map[text: "deviceSignature"]
        let mac = map[text: "deviceMac"]
        switch (signature, mac) {
        case (let signature?, nil):
            self = .deviceSignature(try COSESign1(cbor: signature, at: path.appending(key: "deviceSignature")))
        case (nil, let mac?):
            self = .deviceMac(try COSEMac0(cbor: mac, at: path.appending(key: "deviceMac")))
        case (nil, nil):
            throw CBORError(.missingValue, "missing \"deviceSignature\" or \"deviceMac\"", path: path)
        case (.some, .some):
            throw CBORError(.invalidValue, "DeviceAuth holds both \"deviceSignature\" and \"deviceMac\"", path: path)
        }
    }

    public var cbor: CBOR {
        switch self {
        case .deviceSignature(let signature): return ["deviceSignature": signature.cbor]
        case .deviceMac(let mac): return ["deviceMac": mac.cbor]
        }
    }
}
