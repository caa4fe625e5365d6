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

    /// The control code the feature list `features` gives for the feature tagged `tag`: its
    /// value of 4 big-endian octets (part 10 2.2). Nil when the list does not have it, is
    /// malformed before it, or gives another length.
    static func controlCode(of tag: UInt8, in features: [UInt8]) -> UInt? {
        guard let code = value(of: tag, in: features), code.count == 4 else { return nil }
        return code.reduce(0) { $0 << 8 | UInt($1) }
    }

    /// The value of the property tagged `tag` in `properties`, in up to 4 little-endian octets
    /// (part 10 2.6.14). Nil when absent, malformed before it, or longer than 4 octets.
    static func property(_ tag: UInt8, in properties: [UInt8]) -> Int? {
        guard let property = value(of: tag, in: properties), property.count <= 4 else { return nil }
        return property.reversed().reduce(0) { $0 << 8 | Int($1) }
    }

    /// The value of the entry tagged `tag` in `list`, whose entries are a tag octet, a length
    /// octet and that many octets (both the feature list and the TLV properties). Nil when
    /// absent, or when an entry before it runs past the end.
    private static func value(of tag: UInt8, in list: [UInt8]) -> ArraySlice<UInt8>? {
        var index = 0
        while index + 2 <= list.count {
            let (entryTag, length, start) = (list[index], Int(list[index + 1]), index + 2)
            guard start + length <= list.count else { return nil }
            if entryTag == tag { return list[start..<start + length] }
            index = start + length
        }
        return nil
    }
}
