import ArgumentParser
import MdocOnline

/// The protocol of `online-request`: ISO/IEC TS 18013-7 Annex C (`org-iso-mdoc`) or OpenID4VP
/// 1.0 for mdocs.
enum OnlineProtocol: String, CaseIterable, ExpressibleByArgument {
    /// ISO/IEC TS 18013-7 Annex C through the Digital Credentials API: a DeviceRequest and an
    /// EncryptionInfo, the response sealed with HPKE.
    case orgIsoMdoc = "org-iso-mdoc"
    /// OpenID4VP 1.0: a DCQL query, the response a `vp_token`, encrypted as a JWE in the `.jwt`
    /// response modes.
    case openID4VP = "openid4vp"
}
