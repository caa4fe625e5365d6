extension HPKE {
    /// The version label every labeled KDF input starts with (RFC 9180 section 4).
    static let versionLabel = Array("HPKE-v1".utf8)

    /// `LabeledExtract(salt, label, ikm) = Extract(salt, "HPKE-v1" || suite_id || label || ikm)`
    /// (RFC 9180 section 4) with HKDF-SHA256. `salt` and `ikm` may be secrets (the shared
    /// secret is the salt of the key schedule's `secret`): the labeled input is assembled in
    /// wiped storage.
    static func labeledExtract(
        salt: UnsafeRawBufferPointer, label: String, inputKeyMaterial: UnsafeRawBufferPointer, suiteIdentifier: [UInt8]
    ) throws(CryptoError) -> SecureBytes {
        let prefix = versionLabel + suiteIdentifier + Array(label.utf8)
        let labeled = SecureBytes(count: prefix.count + inputKeyMaterial.count)
        labeled.withUnsafeMutableBytes { buffer in
            buffer.copyBytes(from: prefix)
            UnsafeMutableRawBufferPointer(rebasing: buffer[prefix.count...]).copyMemory(from: inputKeyMaterial)
        }
        return try labeled.withUnsafeBytes { (labeledBytes) throws(CryptoError) -> SecureBytes in
            try HKDF.extract(salt: salt, inputKeyMaterial: labeledBytes)
        }
    }

    /// `LabeledExpand(prk, label, info, L) = Expand(prk, I2OSP(L, 2) || "HPKE-v1" || suite_id ||
    /// label || info, L)` (RFC 9180 section 4) with HKDF-SHA256.
    static func labeledExpand(
        _ pseudorandomKey: SecureBytes, label: String, info: [UInt8], outputByteCount: Int, suiteIdentifier: [UInt8]
    ) throws(CryptoError) -> SecureBytes {
        let labeledInfo = HPKECipherSuite.bigEndian(UInt16(outputByteCount)) + versionLabel + suiteIdentifier
            + Array(label.utf8) + info
        return try pseudorandomKey.withUnsafeBytes { (prk) throws(CryptoError) -> SecureBytes in
            try HKDF.expand(pseudorandomKey: prk, info: labeledInfo, outputByteCount: outputByteCount)
        }
    }
}
