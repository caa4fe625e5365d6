/// A handle and the attribute type at it: one entry of a Find Information Response's
/// Information Data (Bluetooth Core Vol 3 Part F 3.4.3.2).
public struct ATTHandleUUID: Sendable, Hashable {
    /// The attribute handle.
    public var handle: UInt16
    /// The attribute type.
    public var uuid: BluetoothUUID

    /// The pair (`handle`, `uuid`).
    public init(handle: UInt16, uuid: BluetoothUUID) {
        self.handle = handle
        self.uuid = uuid
    }
}

/// One entry of a Find By Type Value Response's Handles Information List: the found attribute
/// and the last handle of its group (Core Vol 3 Part F 3.4.3.4).
public struct ATTHandlesInformation: Sendable, Hashable {
    /// The handle of the attribute that matched.
    public var foundAttributeHandle: UInt16
    /// The last handle of its group (the found handle itself for a non-grouping attribute).
    public var groupEndHandle: UInt16

    /// The pair (`foundAttributeHandle`, `groupEndHandle`).
    public init(foundAttributeHandle: UInt16, groupEndHandle: UInt16) {
        self.foundAttributeHandle = foundAttributeHandle
        self.groupEndHandle = groupEndHandle
    }
}

/// One handle-value pair of a Read By Type Response's Attribute Data List
/// (Core Vol 3 Part F 3.4.4.2).
public struct ATTAttributeData: Sendable, Hashable {
    /// The attribute handle.
    public var handle: UInt16
    /// The attribute value (possibly its first part).
    public var value: [UInt8]

    /// The pair (`handle`, `value`).
    public init(handle: UInt16, value: [UInt8]) {
        self.handle = handle
        self.value = value
    }
}

/// The Attribute Data List of a Read By Type Response: one or more handle-value pairs whose
/// values all have the same length, at most 253 octets (Core Vol 3 Part F 3.4.4.2: the one-octet
/// Length field counts the 2-octet handle too).
public struct ATTAttributeDataList: Sendable, Hashable {
    /// The longest value an entry may hold: 255 minus the 2-octet handle.
    public static let maximumValueLength = 253

    /// The entries, in handle order.
    public let entries: [ATTAttributeData]

    /// The list of `entries`; throws `invalidParameter` when it is empty, the values differ in
    /// length, or a value exceeds ``maximumValueLength``.
    public init(_ entries: [ATTAttributeData]) throws(ATTError) {
        guard let first = entries.first else {
            throw ATTError(.invalidParameter, "a Read By Type Response needs at least one handle-value pair",
                           opcode: .readByTypeResponse)
        }
        guard first.value.count <= Self.maximumValueLength else {
            throw ATTError(.invalidParameter,
                           "a Read By Type Response value of \(first.value.count) bytes exceeds \(Self.maximumValueLength)",
                           opcode: .readByTypeResponse)
        }
        if let odd = entries.first(where: { $0.value.count != first.value.count }) {
            throw ATTError(.invalidParameter,
                           "Read By Type Response values differ in length: \(first.value.count) bytes at handle \(first.handle), \(odd.value.count) at handle \(odd.handle)",
                           opcode: .readByTypeResponse)
        }
        self.entries = entries
    }

    /// A list the caller built to the rules above (non-empty, equal lengths within the maximum).
    init(uncheckedEntries entries: [ATTAttributeData]) {
        self.entries = entries
    }

    /// The common length of the values.
    public var valueLength: Int { entries.first?.value.count ?? 0 }
}

/// One entry of a Read By Group Type Response's Attribute Data List: a grouping attribute, the
/// last handle of its group and its value (Core Vol 3 Part F 3.4.4.10).
public struct ATTGroupData: Sendable, Hashable {
    /// The handle of the grouping attribute (e.g. a service declaration).
    public var handle: UInt16
    /// The last handle of the group.
    public var endGroupHandle: UInt16
    /// The attribute value (for a service declaration, the service UUID).
    public var value: [UInt8]

    /// The entry (`handle`, `endGroupHandle`, `value`).
    public init(handle: UInt16, endGroupHandle: UInt16, value: [UInt8]) {
        self.handle = handle
        self.endGroupHandle = endGroupHandle
        self.value = value
    }
}

/// The Attribute Data List of a Read By Group Type Response: one or more entries whose values all
/// have the same length, at most 251 octets (Core Vol 3 Part F 3.4.4.10: the one-octet Length
/// field counts both 2-octet handles too).
public struct ATTGroupDataList: Sendable, Hashable {
    /// The longest value an entry may hold: 255 minus two 2-octet handles.
    public static let maximumValueLength = 251

    /// The entries, in handle order.
    public let entries: [ATTGroupData]

    /// The list of `entries`; throws `invalidParameter` when it is empty, the values differ in
    /// length, or a value exceeds ``maximumValueLength``.
    public init(_ entries: [ATTGroupData]) throws(ATTError) {
        guard let first = entries.first else {
            throw ATTError(.invalidParameter, "a Read By Group Type Response needs at least one entry",
                           opcode: .readByGroupTypeResponse)
        }
        guard first.value.count <= Self.maximumValueLength else {
            throw ATTError(.invalidParameter,
                           "a Read By Group Type Response value of \(first.value.count) bytes exceeds \(Self.maximumValueLength)",
                           opcode: .readByGroupTypeResponse)
        }
        if let odd = entries.first(where: { $0.value.count != first.value.count }) {
            throw ATTError(.invalidParameter,
                           "Read By Group Type Response values differ in length: \(first.value.count) bytes at handle \(first.handle), \(odd.value.count) at handle \(odd.handle)",
                           opcode: .readByGroupTypeResponse)
        }
        self.entries = entries
    }

    /// A list the caller built to the rules above (non-empty, equal lengths within the maximum).
    init(uncheckedEntries entries: [ATTGroupData]) {
        self.entries = entries
    }

    /// The common length of the values.
    public var valueLength: Int { entries.first?.value.count ?? 0 }
}
