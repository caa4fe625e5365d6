import MdocCBOR

/// `DeviceAuthentication = ["DeviceAuthentication", SessionTranscript, DocType,
/// DeviceNameSpacesBytes]` (ISO/IEC 18013-5 9.1.3.4): the detached payload of deviceSignature or
/// deviceMac, as `DeviceAuthenticationBytes = #6.24(bstr .cbor DeviceAuthentication)`.
///
/// Built from the exact DeviceNameSpacesBytes of the DeviceSigned structure and the
/// SessionTranscript both sides hold.
public struct DeviceAuthentication: CBORRepresentable {
    /// The context string, the array's first element.
    public static let context = "DeviceAuthentication"

    /// The SessionTranscript of the session (9.1.5.1).
    public var sessionTranscript: SessionTranscript
    /// The document type, such as ``DocType/mDL``.
    public var docType: String
    /// DeviceNameSpacesBytes, as received in DeviceSigned.
    public var deviceNameSpacesBytes: EmbeddedCBOR<DeviceNameSpaces>

    /// Builds the structure from its parts.
    public init(sessionTranscript: SessionTranscript, docType: String, deviceNameSpacesBytes: EmbeddedCBOR<DeviceNameSpaces>) {
        self.sessionTranscript = sessionTranscript
        self.docType = docType
        self.deviceNameSpacesBytes = deviceNameSpacesBytes
    }

    public init(cbor: CBOR, at path: CBORPath) throws(CBORError) {
        let array = try cbor.array(at: path)
        guard array.count == 4 else {
            throw CBORError(.invalidValue, "DeviceAuthentication must have 4 elements, found \(array.count)", path: path)
        }
        let context = try array[0].text(at: path.appending(index: 0))
        guard context == Self.context else {
            throw CBORError(.invalidValue, "expected \"\(Self.context)\", found \"\(context)\"", path: path.appending(index: 0))
        }
        sessionTranscript = try SessionTranscript(cbor: array[1], at: path.appending(index: 1))
        docType = try array[2].text(at: path.appending(index: 2))
        deviceNameSpacesBytes = try EmbeddedCBOR(cbor: array[3], at: path.appending(index: 3))
    }

    public var cbor: CBOR {
        .array([.textString(Self.context), sessionTranscript.cbor, .textString(docType), deviceNameSpacesBytes.cbor])
    }

    /// DeviceAuthenticationBytes: the detached COSE payload is `bytes.encoded()`.
    public var bytes: EmbeddedCBOR<DeviceAuthentication> {
        EmbeddedCBOR(self)
    }
}
