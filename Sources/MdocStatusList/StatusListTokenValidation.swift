#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What ``StatusListToken/validate(uri:at:key:)`` found: every check it made, in order, for a
/// token that passed them all (draft-ietf-oauth-status-list section 8.3 step 3 and 4). A token
/// that fails one is never described by this value: validation throws the check's error instead.
public struct StatusListTokenValidation: Sendable {
    /// One check of section 5.2 or 8.3.
    public struct Check: Sendable, Hashable, CustomStringConvertible {
        /// What was checked.
        public enum Kind: String, Sendable, Hashable {
            /// A tagged COSE_Sign1 or COSE_Mac0, not wrapped in tag 61 (section 5.2).
            case form
            /// The protected `typ` (section 5.2).
            case type
            /// The required claims and their types (section 8.3 step 3b).
            case claims
            /// The signature or MAC with the key given (section 5.2 rule 2; RFC 8392 section 7.2).
            case authenticity
            /// `sub` equals the Referenced Token's `uri` (section 8.3 step 4a).
            case subject
            /// `iat` is not in the future, beyond ``StatusListLimits/clockSkew`` (section 8.3 step 4b).
            case issuedAt
            /// `exp`, when present, has not passed (section 8.3 step 4c).
            case expiration
            /// The list inflates within ``StatusListLimits/decompressedBytes`` (section 8.3 step 5).
            case statusList
        }

        /// What was checked.
        public let kind: Kind
        /// What was found, for people.
        public let detail: String

        /// `kind: detail`.
        public var description: String { "\(kind.rawValue): \(detail)" }
    }

    /// The checks, in the order they were made.
    public let checks: [Check]
    /// The time the token was validated at.
    public let time: Date
    /// The validated token.
    public let token: StatusListToken

    /// The status list of the validated token.
    public var statusList: StatusList { token.statusList }
}
