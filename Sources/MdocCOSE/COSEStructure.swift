import MdocCBOR

/// What COSE_Sign1 and COSE_Mac0 share: the four-element array and the structure that is signed
/// or MACed (RFC 9052 sections 4.2, 4.4, 6.2, 6.3).
enum COSEStructure {
    /// The decoded first three elements, and the fourth (signature or tag) still as an item.
    struct Elements {
        var headers: COSEHeaders
        var payload: CBORBytes?
        var last: CBOR
    }

    /// Reads `[protected, unprotected, payload / nil, x]`, accepting the message's own tag.
    static func elements(of cbor: CBOR, tag: UInt64, name: String, at path: CBORPath) throws(CBORError) -> Elements {
        var item = cbor
        var path = path
        if case .tagged(let found, let content) = cbor {
            guard found == tag else {
                throw CBORError(.unexpectedType, "expected \(name) (untagged or tag \(tag)), found tag \(found)", path: path)
            }
            item = content
            path = path.appending(.tagContent(tag))
        }
        let array = try item.array(at: path)
        guard array.count == 4 else {
            throw CBORError(.invalidValue, "\(name) must have 4 elements, found \(array.count)", path: path)
        }
        let protectedPath = path.appending(index: 0)
        let unprotectedPath = path.appending(index: 1)
        let protectedBytes = try array[0].bytes(at: protectedPath)
        let unprotected = try array[1].map(at: unprotectedPath)
        let headers = try COSEHeaders(protectedBytes: protectedBytes, protectedPath: protectedPath,
                                      unprotected: unprotected, unprotectedPath: unprotectedPath)
        let payload: CBORBytes?
        switch array[2] {
        case .byteString(let bytes): payload = bytes
        case .null: payload = nil
        default: throw array[2].mismatch("a byte string or null (payload)", at: path.appending(index: 2))
        }
        return Elements(headers: headers, payload: payload, last: array[3])
    }

    /// Reads the untagged `[protected, unprotected, payload / nil, x]` with `x` a byte string,
    /// the array nested `depth` containers deep, straight from the bytes: the parts
    /// ``elements(of:tag:name:at:)`` gives for it, or `nil` for any other form or any error,
    /// which the decoder and ``elements(of:tag:name:at:)`` then report (see `CBORHeadReader`).
    static func read(_ reader: inout CBORHeadReader, depth: Int) -> (headers: COSEHeaders, payload: CBORBytes?, last: CBORBytes)? {
        guard reader.readArrayCount() == 4, let protectedBytes = reader.readByteString(),
              case .map(let unprotected)? = reader.readItem(depth: depth + 1)
        else { return nil }
        let payload: CBORBytes?
        if reader.readNull() {
            payload = nil
        } else if let bytes = reader.readByteString() {
            payload = bytes
        } else {
            return nil
        }
        // The paths locate errors, which make this read give way to the decoder's.
        guard let last = reader.readByteString(),
              let headers = try? COSEHeaders(protectedBytes: Array(protectedBytes), protectedPath: .root, unprotected: unprotected, unprotectedPath: .root)
        else { return nil }
        return (headers, payload, last)
    }

    /// The encoded `[context, body_protected, external_aad, payload]`: Sig_structure for
    /// "Signature1" (RFC 9052 section 4.4), MAC_structure for "MAC0" (section 6.3). The byte
    /// strings carry `protectedBytes` and `payload` exactly as given.
    static func toBeAuthenticated(context: String, protectedBytes: [UInt8], externalAAD: [UInt8], payload: CBORBytes) -> [UInt8] {
        var structure = toBeAuthenticatedPrefix(
            context: context, protectedBytes: protectedBytes, externalAAD: externalAAD, payloadCount: payload.count,
            reservingPayload: true)
        payload.withUnsafeBytes { structure.append(contentsOf: $0) }
        return structure
    }

    /// The bytes of ``toBeAuthenticated(context:protectedBytes:externalAAD:payload:)`` that come
    /// before the payload's content: the array head, `context`, `protectedBytes` and `externalAAD`
    /// with their heads, and the head of a payload of `payloadCount` bytes. The payload's bytes
    /// follow these to make the whole structure, so that it is hashed without copying them;
    /// with `reservingPayload`, the bytes returned have room for them to be appended.
    static func toBeAuthenticatedPrefix(
        context: String, protectedBytes: [UInt8], externalAAD: [UInt8], payloadCount: Int, reservingPayload: Bool = false
    ) -> [UInt8] {
        // The head of an array of 4 elements: major type 4, argument 4 (RFC 8949 section 3).
        var prefix: [UInt8] = [0x84]
        prefix.reserveCapacity(32 + protectedBytes.count + externalAAD.count + (reservingPayload ? payloadCount : 0))
        CBOR.textString(context).encode(into: &prefix)
        CBOR.byteString(protectedBytes).encode(into: &prefix)
        CBOR.byteString(externalAAD).encode(into: &prefix)
        CBOR.encodeByteStringHead(count: payloadCount, into: &prefix)
        return prefix
    }
}
