import COpenSSL

extension Curve {
    /// OpenSSL's short name of the key type (`id-ecPublicKey`, `X25519`, `ED448`, ...).
    ///
    /// A static C string: OpenSSL may keep the pointer, which a bridged Swift string would not allow.
    var keyTypeName: UnsafePointer<CChar>? {
        OBJ_nid2sn(isWeierstrass ? NID_X9_62_id_ecPublicKey : nid)
    }

    /// OpenSSL's short name of a Weierstrass curve's group (`prime256v1`, `brainpoolP320r1`, ...);
    /// a static C string.
    var groupName: UnsafePointer<CChar>? {
        OBJ_nid2sn(nid)
    }
}
