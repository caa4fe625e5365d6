import COpenSSL

extension PublicKey {
    /// The algorithm and parameter OIDs (contents octets) of the SubjectPublicKeyInfo of a key on
    /// each curve: id-ecPublicKey with the namedCurve for Weierstrass curves (RFC 5480 section
    /// 2.1.1), the curve's own OID without parameters for the others (RFC 8410 section 3). Read
    /// from OpenSSL's object table.
    private static let keyInfoIdentifiers: [(algorithm: [UInt8], parameter: [UInt8]?, curve: Curve)] =
        Curve.allCases.map { curve in
            curve.isWeierstrass
                ? (objectContents(NID_X9_62_id_ecPublicKey), objectContents(curve.nid), curve)
                : (objectContents(curve.nid), nil, curve)
        }

    /// The subject public key of a certificate walked by ``CertificateLayout``, imported from its
    /// point or raw octets (``init(x963Representation:curve:)``, ``init(rawRepresentation:curve:)``)
    /// instead of by OpenSSL 3.0's SubjectPublicKeyInfo decoder, whose set-up dominates the cost of
    /// `d2i_X509`. `nil` for any algorithm, parameter or encoding this import does not take
    /// (explicit curve parameters, hybrid points, other key types): the caller then has OpenSSL
    /// decode the certificate.
    init?(certificateKeyIn layout: CertificateLayout, of bytes: [UInt8]) {
        let algorithm = layout.publicKeyAlgorithm
        let parameter: [UInt8]?
        if let element = algorithm.parameters {
            // A namedCurve parameter is an OBJECT IDENTIFIER; anything else is not imported here.
            guard element.tag == 0x06 else { return nil }
            parameter = Array(bytes[element.contents])
        } else {
            parameter = nil
        }
        let algorithmOID = bytes[algorithm.algorithm]
        guard layout.publicKey.unusedBits == 0,
            let curve = Self.keyInfoIdentifiers.first(where: {
                $0.algorithm.elementsEqual(algorithmOID) && $0.parameter == parameter
            })?.curve
        else { return nil }
        let octets = Array(bytes[layout.publicKey.octets])
        if curve.isWeierstrass {
            guard let key = try? PublicKey(x963Representation: octets, curve: curve) else { return nil }
            self = key
        } else {
            guard let key = try? PublicKey(rawRepresentation: octets, curve: curve) else { return nil }
            self = key
        }
    }

    /// The contents octets of the OBJECT IDENTIFIER of `nid`.
    private static func objectContents(_ nid: Int32) -> [UInt8] {
        guard let object = OBJ_nid2obj(nid), let data = OBJ_get0_data(object) else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: OBJ_length(object)))
    }
}
