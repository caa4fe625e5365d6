import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocText

extension MessageExplainer {
    /// A COSE_Sign1 from CBOR (tag 18 or not); `role` is the Annex B role of the certificate
    /// its `x5chain` should start with, when the message's place says it.
    static func coseSign1(_ item: CBOR, role: CertificateBuilder.Profile?) -> [Explanation] {
        decoding(item, as: COSESign1.self) { coseSign1($0, role: role) }
    }

    /// COSE_Sign1 (RFC 9052 section 4.2): headers, payload (decoded when it is CBOR) and
    /// signature.
    static func coseSign1(_ message: COSESign1, role: CertificateBuilder.Profile?) -> [Explanation] {
        [
            protectedHeader(message.headers, role: role),
            Explanation("Unprotected header", children: headerParameters(message.unprotectedHeaders, role: role)),
            payload(message.payload),
            signature(message.signature, algorithm: message.algorithm),
        ]
    }

    /// A COSE_Mac0 from CBOR (tag 17 or not).
    static func coseMac0(_ item: CBOR) -> [Explanation] {
        decoding(item, as: COSEMac0.self, coseMac0)
    }

    /// COSE_Mac0 (RFC 9052 section 6.2): headers, payload and tag.
    static func coseMac0(_ message: COSEMac0) -> [Explanation] {
        [
            protectedHeader(message.headers, role: nil),
            Explanation("Unprotected header", children: headerParameters(message.unprotectedHeaders, role: nil)),
            payload(message.payload),
            Explanation.bytes("Tag", message.tag),
        ]
    }

    /// The protected header: its bytes as received and the parameters in them.
    static func protectedHeader(_ headers: COSEHeaders, role: CertificateBuilder.Profile?) -> Explanation {
        Explanation(
            "Protected header", "h'\(Hex.encode(headers.protectedBytes))', \(headers.protectedBytes.count) bytes",
            children: headerParameters(headers.protected, role: role))
    }

    /// Header parameters (RFC 9052 section 3.1, RFC 9360), each named; certificates of an
    /// `x5chain` explained in full.
    static func headerParameters(_ map: CBORMap, role: CertificateBuilder.Profile?) -> [Explanation] {
        guard !map.isEmpty else { return [Explanation("Parameters", "none")] }
        return map.entries.map { entry in
            switch (entry.key.int64Value, entry.value) {
            case (COSEHeaders.Label.algorithm, _):
                return Explanation("alg (1)", algorithmName(entry.value))
            case (COSEHeaders.Label.critical, _):
                return diagnostic("crit (2)", entry.value)
            case (3, _):
                return diagnostic("content type (3)", entry.value)
            case (COSEHeaders.Label.keyIdentifier, .byteString(let kid)):
                return Explanation.bytes("kid (4)", kid)
            case (COSEHeaders.Label.x5chain, .byteString(let der)):
                return Explanation("x5chain (33)", "1 certificate", children: x5chain([Array(der)], role: role))
            case (COSEHeaders.Label.x5chain, .array(let items)):
                let ders = items.compactMap(\.bytesValue)
                guard ders.count == items.count else { return diagnostic("x5chain (33), not byte strings", entry.value) }
                return Explanation("x5chain (33)", "\(ders.count) certificate\(ders.count == 1 ? "" : "s")", children: x5chain(ders, role: role))
            default:
                return diagnostic("\(entry.key.diagnosticNotation())", entry.value)
            }
        }
    }

    /// The certificates of an `x5chain`, leaf first: the leaf in `role`, the others as CAs,
    /// each checked against the certificate after it as its issuer.
    static func x5chain(_ ders: [[UInt8]], role: CertificateBuilder.Profile?) -> [Explanation] {
        let parsed = ders.map { try? Certificate(derEncoded: $0) }
        return ders.enumerated().map { index, der in
            let issuer = index + 1 < parsed.count ? parsed[index + 1] : nil
            let place: CertificateBuilder.Profile? = index == 0 ? role : role.map(\.issuerProfile)
            return certificate(der: der, label: "Certificate \(index)", role: place, issuer: issuer)
        }
    }

    /// A payload: detached, or its size and, when it is CBOR, its explanation.
    static func payload(_ bytes: CBORBytes?) -> Explanation {
        guard let bytes else {
            return Explanation("Payload", "null: detached, the verifier rebuilds it (RFC 9052 section 2)")
        }
        guard let item = try? CBOR.decode(bytes) else {
            return Explanation.bytes("Payload", bytes)
        }
        return Explanation("Payload", "\(bytes.count) bytes", children: [explain(item)])
    }

    /// A signature: ECDSA as r and s (RFC 9053 section 2.1), others as bytes.
    static func signature(_ bytes: [UInt8], algorithm: COSEAlgorithm?) -> Explanation {
        guard let algorithm, algorithm.isSignatureAlgorithm, algorithm != .edDSA, bytes.count % 2 == 0, !bytes.isEmpty else {
            return Explanation.bytes("Signature", bytes)
        }
        let half = bytes.count / 2
        return Explanation("Signature", "\(bytes.count) bytes, ECDSA r and s", children: [
            Explanation.bytes("r", Array(bytes[..<half])),
            Explanation.bytes("s", Array(bytes[half...])),
        ])
    }

    /// The name of a COSE algorithm value (IANA "COSE Algorithms").
    static func algorithmName(_ value: CBOR) -> TerminalText {
        let names: [Int64: String] = [
            -7: "ES256 (ECDSA with SHA-256)", -35: "ES384 (ECDSA with SHA-384)", -36: "ES512 (ECDSA with SHA-512)",
            -8: "EdDSA", 4: "HMAC 256/64", 5: "HMAC 256/256 (HMAC with SHA-256)", 6: "HMAC 384/384", 7: "HMAC 512/512",
        ]
        guard let number = value.int64Value, let name = names[number] else {
            return "\(value.diagnosticNotation()) (not an algorithm ISO/IEC 18013-5 uses)"
        }
        return "\(number) \(name)"
    }

    /// Sig_structure (RFC 9052 section 4.4) or MAC_structure (section 6.3): context, protected
    /// header, external AAD and the payload, explained.
    static func coseStructure(_ item: CBOR) -> [Explanation] {
        guard let array = item.arrayValue, array.count == 4, let context = array[0].textValue,
            let protected = array[1].bytesValue, let aad = array[2].bytesValue, let payload = array[3].bytesValue
        else { return [diagnostic("Not a Sig_structure or MAC_structure", item)] }
        let header: Explanation
        do {
            let headers = try COSEHeaders(protectedBytes: protected, unprotected: CBORMap())
            header = protectedHeader(headers, role: nil)
        } catch {
            header = Explanation("Protected header", "h'\(Hex.encode(protected))', does not decode: \(error)")
        }
        return [
            Explanation("Context", "\"\(context)\""),
            header,
            Explanation.bytes("External AAD", aad),
            self.payload(CBORBytes(payload)),
        ]
    }
}
