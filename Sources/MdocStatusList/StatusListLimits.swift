/// The bounds this module sets on a Status List Token from the network: a list is input of an
/// attacker's choosing, and a small compressed list may inflate to a very large one
/// (draft-ietf-oauth-status-list section 11.1 on decoding the list with care; section 11.5 on
/// bounding what a token's claims make a client do).
public enum StatusListLimits {
    /// 4 MiB: the largest token decoded. The draft's appendix "Size Comparison" puts 10 million
    /// 1-bit entries with half of them set, the worst case for compression, at about 1.2 MB;
    /// this leaves room for lists of a few times that.
    public static let tokenBytes = 4 * 1024 * 1024

    /// 16 MiB: the most a list may inflate to, whatever its compressed size: 134 million 1-bit
    /// entries or 16 million 8-bit ones. The bound is absolute, not a ratio, because legitimate
    /// lists compress up to about 900:1 (the 2^20-entry 1-bit vector of the draft's appendix
    /// "Test vectors for Status List encoding" is 189 bytes for 131,072).
    public static let decompressedBytes = 16 * 1024 * 1024

    /// 60 seconds: how far `iat` may lie after the validation time before the token counts as
    /// issued in the future. Issuer and reader clocks differ a little; section 8.3 step 4b leaves
    /// freshness to the relying party's policy.
    public static let clockSkew: Int64 = 60
}
