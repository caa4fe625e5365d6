import MdocCBOR
@testable import MdocInspection
import MdocTestSupport
@testable import MdocText
import Testing


import Foundation

/// `mdoc inspect --json` (docs/inspect-json.md): the JSON holds every CBOR item exactly, which
/// these tests prove by reading it back with the documented rules and comparing the items, and
/// for the Annex D messages the bytes.
@Suite struct LosslessJSONTests {
    struct Unreadable: Error, CustomStringConvertible {
        var description: String
    }

    /// The CBOR item a JSON value of the mapping stands for: the inverse docs/inspect-json.md
    /// describes, written independently of the encoder.
    static func item(_ json: JSONValue) throws -> CBOR {
        switch json {
        case .null: return .null
        case .bool(let value): return .boolean(value)
        case .int(let value): return CBOR(value)
        case .bigInteger(let digits): return try integer(digits)
        case .double(let value): return .float(value)
        case .string(let text): return .textString(text)
        case .array(let items): return .array(try items.map(item))
        case .object(let members):
            if let marker = members.first?.0, marker.hasPrefix("$"), !marker.hasPrefix("$$"), !CBOR.isDecimalInteger(String(marker.dropFirst())) {
                return try special(members)
            }
            var map = CBORMap()
            for (key, value) in members {
                map.append(try mapKey(key), try item(value))
            }
            return .map(map)
        }
    }

    static func mapKey(_ key: String) throws -> CBOR {
        if key.hasPrefix("$") { return .textString(String(key.dropFirst())) }
        if CBOR.isDecimalInteger(key) { return try integer(key) }
        return .textString(key)
    }

    static func integer(_ digits: String) throws -> CBOR {
        if digits.hasPrefix("-") {
            guard let magnitude = UInt64(digits.dropFirst()) else {
                guard digits == "-18446744073709551616" else { throw Unreadable(description: "integer \(digits)") }
                return .negativeInt(UInt64.max)
            }
            return .negativeInt(magnitude - 1)
        }
        guard let value = UInt64(digits) else { throw Unreadable(description: "integer \(digits)") }
        return .unsignedInt(value)
    }

    static func special(_ members: [(String, JSONValue)]) throws -> CBOR {
        let fields = Dictionary(members, uniquingKeysWith: { first, _ in first })
        switch members.first?.0 {
        case "$bytes":
            guard case .string(let text)? = fields["$bytes"], let bytes = Base64URL.decode(text) else { throw Unreadable(description: "$bytes") }
            return .byteString(bytes)
        case "$tag":
            guard let number = fields["$tag"], let content = fields["$value"], case .unsignedInt(let tag) = try item(number) else {
                throw Unreadable(description: "$tag")
            }
            let value = try item(content)
            if let embedded = fields["$embedded"] {
                // The embedded item is a reading of the content's bytes; it must agree with them.
                guard case .byteString(let bytes) = value, try CBOR.decode(bytes) == item(embedded) else {
                    throw Unreadable(description: "$embedded does not match its bytes")
                }
            }
            return .tagged(tag, value)
        case "$map":
            guard case .array(let pairs)? = fields["$map"] else { throw Unreadable(description: "$map") }
            var map = CBORMap()
            for pair in pairs {
                guard case .array(let parts) = pair, parts.count == 2 else { throw Unreadable(description: "$map pair") }
                map.append(try item(parts[0]), try item(parts[1]))
            }
            return .map(map)
        case "$simple":
            guard case .int(let value)? = fields["$simple"] else { throw Unreadable(description: "$simple") }
            return value == 23 ? .undefined : .simple(UInt8(value))
        case "$float":
            guard case .string(let name)? = fields["$float"] else { throw Unreadable(description: "$float") }
            return .float(name == "NaN" ? .nan : name == "Infinity" ? .infinity : -.infinity)
        default:
            throw Unreadable(description: "marker \(members.first?.0 ?? "")")
        }
    }

    /// The item read back from its JSON value.
    static func roundTrip(_ item: CBOR) throws -> CBOR {
        try Self.item(item.losslessJSON)
    }

    /// The item read back from the JSON text written, parsed with the toolkit's strict JSON
    /// reader (which holds integers to 64 bits, as the Annex D messages' are).
    static func roundTripThroughText(_ item: CBOR) throws -> CBOR {
        let text = item.losslessJSON.serialized(pretty: true)
        let parsed = try JSONParser.parse(Array(text.utf8), maximumDepth: 200)
        #expect(parsed == item.losslessJSON)
        return try Self.item(parsed)
    }

    static let annexDMessages = [
        "device_engagement", "device_request", "device_response", "session_establishment", "session_data_response",
        "session_termination", "session_transcript_bytes", "issuer_auth", "issuer_signed", "device_signed",
        "mobile_security_object_bytes", "reader_authentication_bytes", "device_authentication_bytes", "items_request_bytes",
        "device_auth_mac_structure", "driving_privileges",
    ]

    @Test(arguments: annexDMessages)
    func annexDMessagesReadBackToTheSameBytes(_ name: String) throws {
        let bytes = Vectors.annexD(name)
        let item = try CBOR.decode(bytes)
        let back = try Self.roundTripThroughText(item)
        #expect(back == item)
        #expect(back.encoded() == bytes)
    }

    @Test func mapKeysOfEveryKindReadBackAsTheKeyTheyWere() throws {
        let map: CBOR = .map(CBORMap([
            .init(key: 1, value: "int"), .init(key: "1", value: "text that reads as an integer"),
            .init(key: -1, value: "negative"), .init(key: "-1", value: "text"), .init(key: "$bytes", value: "marker-like text"),
            .init(key: "$$", value: "dollars"), .init(key: "01", value: "not canonical, stays text"), .init(key: "-0", value: "text"),
            .init(key: .unsignedInt(UInt64.max), value: "largest"), .init(key: .negativeInt(UInt64.max), value: "smallest"),
        ]))
        guard case .object(let members) = map.losslessJSON else {
            Issue.record("a map of text and integer keys is not an object")
            return
        }
        #expect(members.map(\.0) == [
            "1", "$1", "-1", "$-1", "$$bytes", "$$$", "01", "-0", "18446744073709551615", "-18446744073709551616",
        ])
        #expect(try Self.roundTrip(map) == map)
    }

    @Test func mapsWithOtherKeysArePairLists() throws {
        let map: CBOR = .map(CBORMap([.init(key: .byteString([1, 2]), value: 1), .init(key: .boolean(true), value: 2)]))
        #expect(map.losslessJSON.serialized() == #"{"$map":[[{"$bytes":"AQI"},1],[true,2]]}"#)
        #expect(try Self.roundTrip(map) == map)
    }

    @Test func everyTagIsKeptTheSameWay() throws {
        let fullDate: CBOR = .tagged(CBOR.Tag.fullDateString, "2024-01-01")
        let tdate: CBOR = .tagged(CBOR.Tag.dateTimeString, "2024-01-01T00:00:00Z")
        #expect(fullDate.losslessJSON.serialized() == #"{"$tag":1004,"$value":"2024-01-01"}"#)
        #expect(tdate.losslessJSON.serialized() == #"{"$tag":0,"$value":"2024-01-01T00:00:00Z"}"#)
        let embedded = CBOR.encodedCBOR(CBOR.array([1, "a"]).encoded())
        #expect(embedded.losslessJSON.serialized() == #"{"$tag":24,"$value":{"$bytes":"ggFhYQ"},"$embedded":[1,"a"]}"#)
        // Tag 24 over bytes that are not CBOR keeps the bytes only.
        let notCBOR: CBOR = .tagged(CBOR.Tag.encodedCBOR, .byteString([0xff]))
        #expect(notCBOR.losslessJSON.serialized() == #"{"$tag":24,"$value":{"$bytes":"_w"}}"#)
        for item in [fullDate, tdate, embedded, notCBOR, .tagged(UInt64.max, .null)] {
            #expect(try Self.roundTrip(item) == item)
        }
    }

    @Test func numbersAndSimpleValuesKeepTheirKind() throws {
        let items: [CBOR] = [
            .unsignedInt(UInt64.max), .negativeInt(UInt64.max), .float(1.0), .float(-0.5), .float(1e300), .float(.nan), .float(.infinity),
            .float(-.infinity), .simple(16), .simple(255), .undefined, .null, .boolean(false), .byteString([]), .textString(""),
        ]
        for item in items {
            let back = try Self.roundTrip(item)
            if case .float(let value) = item, value.isNaN {
                guard case .float(let read) = back, read.isNaN else {
                    Issue.record("NaN read back as \(back)")
                    continue
                }
            } else {
                #expect(back == item, "\(item)")
            }
        }
        #expect(CBOR.float(1.0).losslessJSON.serialized() == "1.0")
        #expect(CBOR.unsignedInt(1).losslessJSON.serialized() == "1")
    }
}
