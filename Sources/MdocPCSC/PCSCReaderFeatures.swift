/// The reader features of PC/SC part 10 (v2.02.09, "IFDs with Secure PIN Entry Capabilities",
/// 2.2 and 2.6.14) that tell how long an APDU a reader carries: the control codes a reader lists
/// for `CM_IOCTL_GET_FEATURE_REQUEST`, and the TLV properties of `FEATURE_GET_TLV_PROPERTIES`.
enum PCSCReaderFeatures {
    /// `CM_IOCTL_GET_FEATURE_REQUEST`: `SCARD_CTL_CODE(3400)`, pcsc-lite's 0x42000000 + 3400.
    static let getFeatureRequest: UInt = 0x4200_0000 + 3400
    /// The tag of `FEATURE_GET_TLV_PROPERTIES` in the feature list.
    static let getTLVProperties: UInt8 = 0x12
    /// The tag of `dwMaxAPDUDataSize` among the TLV properties.
    static let maximumAPDUDataSizeTag: UInt8 = 10
    /// The room given to a control's output: a feature list of every feature part 10 defines
    /// (6 octets each) and the TLV properties fit in it many times.
    static let maximumOutputLength = 1024

    /// The control code the feature list `features` gives for the feature tagged `tag`: entries
    /// of a tag octet, a length octet of 4, and the code in 4 big-endian octets (part 10 2.2).
    /// Nil when the list does not have it, or is malformed before it.
    static func controlCode(of tag: UInt8, in features: [UInt8]) -> UInt? {
        var index = 0
        while index + 2 <= features.count {
            let entryTag = features[index]
            let length = Int(features[index + 1])
            let valueStart = index + 2
            guard length == 4, valueStart + length <= features.count else { return nil }
            if entryTag == tag {
                return features[valueStart..<valueStart + length].reduce(0) { $0 << 8 | UInt($1) }
            }
            index = valueStart + length
        }
        return nil
    }

    /// The value of the property tagged `tag` in `properties`: entries of a tag octet, a length
    /// octet, and the value in that many little-endian octets (part 10 2.6.14). Nil when absent,
    /// malformed before it, or longer than 4 octets.
    static func property(_ tag: UInt8, in properties: [UInt8]) -> Int? {
        var index = 0
        while index + 2 <= properties.count {
            let entryTag = properties[index]
            let length = Int(properties[index + 1])
            let valueStart = index + 2
            guard valueStart + length <= properties.count else { return nil }
            if entryTag == tag {
                guard length <= 4 else { return nil }
                return properties[valueStart..<valueStart + length].reversed().reduce(0) { $0 << 8 | Int($1) }
            }
            index = valueStart + length
        }
        return nil
    }
}
