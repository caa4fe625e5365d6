import MdocCBOR

/// One entry of the `driving_privileges` data element (ISO/IEC 18013-5 7.2.4): a vehicle
/// category the holder may drive, with the dates and the restriction codes that apply to it.
///
/// Every text is the issuer's, so it is kept as `UntrustedString`; a malformed entry does not
/// decode (``init(cbor:)`` returns `nil`).
public struct DrivingPrivilege: Sendable, Hashable {
    /// A code of a driving privilege (7.2.4 `Code`): for example code `"S01"` with sign `"<="`
    /// and value `"3500"` for a mass limit.
    public struct Code: Sendable, Hashable {
        /// The code.
        public var code: UntrustedString
        /// The sign of the condition, when there is one.
        public var sign: UntrustedString?
        /// The value of the condition, when there is one.
        public var value: UntrustedString?
    }

    /// The vehicle category code (Table C.1 of ISO/IEC 18013-1), for example `"B"`.
    public var vehicleCategoryCode: UntrustedString
    /// The day the privilege was first issued, when given.
    public var issueDate: FullDate?
    /// The day the privilege expires, when given.
    public var expiryDate: FullDate?
    /// The codes of the privilege, in the order received.
    public var codes: [Code]

    /// The privilege `cbor` holds: a map with `vehicle_category_code` and optionally
    /// `issue_date`, `expiry_date` (each a `full-date`) and `codes`; `nil` when it is not one,
    /// a date that is not a `full-date` and a code without `code` included.
    public init?(cbor: CBOR) {
        guard let map = cbor.mapValue, let category = map[text: "vehicle_category_code"]?.textValue else { return nil }
        vehicleCategoryCode = UntrustedString(category)
        do throws(CBORError) {
            issueDate = try map[text: "issue_date"].map { value throws(CBORError) in try FullDate(cbor: value, at: .root) }
            expiryDate = try map[text: "expiry_date"].map { value throws(CBORError) in try FullDate(cbor: value, at: .root) }
        } catch {
            return nil
        }
        codes = []
        for entry in map[text: "codes"]?.arrayValue ?? [] {
            guard let fields = entry.mapValue, let code = fields[text: "code"]?.textValue else { return nil }
            codes.append(Code(
                code: UntrustedString(code), sign: fields[text: "sign"]?.textValue.map(UntrustedString.init),
                value: fields[text: "value"]?.textValue.map(UntrustedString.init)))
        }
    }
}
