import MdocCBOR
import MdocCrypto

/// Device keys (SDeviceKey, ISO/IEC 18013-5 9.1.3) whose private halves are published: the
/// demo credentials committed in `Certs/demo/` (`mdl.mdoc`, `pid.mdoc`).
///
/// A credential file must not be readable by others because it holds a secret; these keys are
/// no secret, and git checks the demo credentials out readable by everyone (it keeps no mode
/// but 0644 and 0755). So ``CredentialFiles`` accepts a readable credential whose device key is
/// listed here, and the programs say that anyone can present it. A test checks the list against
/// the committed files; remaking the demo credentials means updating it.
public enum PublishedDeviceKeys {
    /// SHA-256 of each published key's SEC 1 uncompressed point (`04‖x‖y`), as hex.
    public static let fingerprints: Set<String> = [
        // Certs/demo/mdl.mdoc
        "b3a6527042ccd65ce1f7a95777f0a7613b926412c15cd9e7b7c21a11a74148ce",
        // Certs/demo/pid.mdoc
        "a002344b7866fa4caf1cb7bacfbec3575248621daaa025b384dd0c4e55eaf065",
    ]

    /// The fingerprint of `key` as ``fingerprints`` lists them.
    public static func keyHash(of key: PublicKey) -> String {
        Hex.encode(DigestAlgorithm.sha256.hash(key.x963Representation))
    }

    /// `true` when `key` is one of the published keys.
    public static func contains(_ key: PublicKey) -> Bool {
        fingerprints.contains(keyHash(of: key))
    }
}
