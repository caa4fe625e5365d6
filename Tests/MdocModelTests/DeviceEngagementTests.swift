import Foundation
import MdocCBOR
import MdocCOSE
import MdocModel
import Testing

@Suite("DeviceEngagement, BleOptions and the mdoc: URI (ISO/IEC 18013-5 8.2)")
struct DeviceEngagementTests {
    static let annexDURI = "mdoc:owBjMS4wAYIB2BhYS6QBAiABIVggWojRgrzl9C76WZQ_MzWdLoqWj_KJ2T5fpES2JDQxZ_4iWCCxboz4WN3HaQQHumHUwzgjeoz8895qpnL8YKVXqjL8ZwKBgwIBowD0AfULUEXv73QrLEg3qaOw4dBaaRc"
    static let centralUUID = UUID(uuidString: "45efef74-2b2c-4837-a9a3-b0e1d05a6917")!

    @Test("D.3.1 QR engagement decodes and re-encodes byte-exactly")
    func qrEngagement() throws {
        let bytes = annexD("device_engagement")
        let engagement = try DeviceEngagement(encoded: bytes)
        #expect(engagement.encoded() == bytes)
        #expect(engagement.version == "1.0")
        #expect(engagement.security.cipherSuiteIdentifier == .suite1)
        #expect(engagement.security.eDeviceKeyBytes.cbor.encoded() == annexD("e_device_key_bytes"))
        #expect(engagement.security.eDeviceKeyBytes.value.x == annexD("eDeviceKey_public_x"))
        #expect(engagement.security.eDeviceKeyBytes.value.y == annexD("eDeviceKey_public_y"))
        let methods = try #require(engagement.deviceRetrievalMethods)
        #expect(methods.count == 1)
        #expect(methods[0].type == .ble)
        #expect(methods[0].version == 1)
        let ble = try #require(engagement.bleOptions)
        #expect(!ble.peripheralServerModeSupported)
        #expect(ble.centralClientModeSupported)
        #expect(ble.centralClientModeUUID == Self.centralUUID)
        #expect(ble.peripheralServerModeUUID == nil)
        #expect(ble.mdocBLEDeviceAddress == nil)
        #expect(engagement.serverRetrievalMethods == nil && engagement.originInfos == nil && engagement.capabilities == nil)
        #expect(engagement.additionalEntries.isEmpty)
    }

    @Test("NFC engagement (no retrieval methods) decodes and re-encodes byte-exactly")
    func nfcEngagement() throws {
        let bytes = annexD("device_engagement_nfc")
        let engagement = try DeviceEngagement(encoded: bytes)
        #expect(engagement.encoded() == bytes)
        #expect(engagement.deviceRetrievalMethods == nil)
        #expect(engagement.bleOptions == nil)
        #expect(engagement.security.eDeviceKeyBytes.cbor.encoded() == annexD("e_device_key_bytes"))
    }

    @Test("keys 5, 6 and unknown keys survive a re-encode, in order")
    func unknownKeysKept() throws {
        guard case .map(var map) = try CBOR.decode(annexD("device_engagement")) else {
            Issue.record("not a map")
            return
        }
        let origin: CBOR = ["cat": 1, "type": 1, "details": ["baseUrl": "https://verifier.example"]]
        map.append(5, [origin])
        map.append(6, [0x44437: true])
        map.append(99, "future")
        map.append(-7, .byteString([1, 2]))
        let bytes = CBOR.map(map).encoded()
        let engagement = try DeviceEngagement(encoded: bytes)
        #expect(engagement.encoded() == bytes)
        #expect(engagement.originInfos?.first?.baseURL == "https://verifier.example")
        #expect(engagement.originInfos?.first?.cat == 1)
        #expect(engagement.capabilities?[int: 0x44437] == true)
        #expect(engagement.additionalEntries.entries.map(\.key) == [99, -7])
    }

    @Test("one BLE method per mode merges into one view")
    func bleOneMethodPerMode() throws {
        let peripheralUUID = UUID(uuidString: "00000000-1111-2222-3333-444444444444")!
        let base = try DeviceEngagement(encoded: annexD("device_engagement"))
        var engagement = base
        let address: [UInt8] = [1, 2, 3, 4, 5, 6]
        engagement.deviceRetrievalMethods = [
            .ble(BleOptions(peripheralServerModeSupported: true, centralClientModeSupported: false,
                            peripheralServerModeUUID: peripheralUUID, mdocBLEDeviceAddress: address,
                            additionalEntries: CBORMap([.init(key: 2, value: 192)]))),
            .ble(BleOptions(peripheralServerModeSupported: false, centralClientModeSupported: true,
                            centralClientModeUUID: Self.centralUUID)),
        ]
        let decoded = try DeviceEngagement(encoded: engagement.encoded())
        #expect(decoded.deviceRetrievalMethods?.count == 2)
        let merged = try #require(decoded.bleOptions)
        #expect(merged.peripheralServerModeSupported && merged.centralClientModeSupported)
        #expect(merged.peripheralServerModeUUID == peripheralUUID)
        #expect(merged.centralClientModeUUID == Self.centralUUID)
        #expect(merged.mdocBLEDeviceAddress == address)
        #expect(merged.additionalEntries[int: 2] == 192)
        #expect(BleOptions.merging([]) == nil)
    }

    @Test("BleOptions keeps the L2CAP PSM (key 2) and writes it back")
    func blePSMKept() throws {
        let options: CBOR = [0: true, 1: false, 2: 0x1001, 10: .byteString(Array(repeating: 7, count: 16))]
        let ble = try BleOptions(cbor: options, at: .root)
        #expect(ble.additionalEntries[int: 2] == 0x1001)
        #expect(ble.encoded() == ([0: true, 1: false, 10: .byteString(Array(repeating: 7, count: 16)), 2: 0x1001] as CBOR).encoded())
    }

    @Test("BLE device address must be 6 bytes; UUIDs 16")
    func bleFieldSizes() throws {
        for count in [BleOptions.deviceAddressByteCount - 1, BleOptions.deviceAddressByteCount + 1] {
            expectCBORError(.invalidValue, at: "[20]") { () throws(CBORError) in
                _ = try BleOptions(cbor: [0: true, 1: false, 20: .byteString(Array(repeating: 0, count: count))], at: .root)
            }
        }
        let ok = try BleOptions(cbor: [0: true, 1: false, 20: .byteString(Array(repeating: 9, count: BleOptions.deviceAddressByteCount))], at: .root)
        #expect(ok.mdocBLEDeviceAddress?.count == BleOptions.deviceAddressByteCount)
        expectCBORError(.invalidValue, at: "[11]") { () throws(CBORError) in
            _ = try BleOptions(cbor: [0: true, 1: false, 11: .byteString(Array(repeating: 0, count: 15))], at: .root)
        }
        expectCBORError(.missingValue, at: "top level") { () throws(CBORError) in
            _ = try BleOptions(cbor: [0: true], at: .root)
        }
    }

    @Test("NFC and Wi-Fi Aware options keep their maps; other types keep their options")
    func otherRetrievalMethods() throws {
        let methods: CBOR = [
            [1, 1, [0: 255, 1: 256]],
            [3, 1, [0: "secret", 2: 6, 3: .byteString([0x14])]],
            [9, 2, ["x": 1]],
        ]
        let decoded = try methods.array(at: .root).enumerated().map { try DeviceRetrievalMethod(cbor: $1, at: CBORPath(components: [.index($0)])) }
        guard case .nfc(let nfc) = decoded[0].retrievalOptions, case .wifiAware(let wifi) = decoded[1].retrievalOptions,
            case .other(let other) = decoded[2].retrievalOptions
        else {
            Issue.record("wrong option kinds: \(decoded)")
            return
        }
        #expect(nfc.maxLengthCommandData == 255 && nfc.maxLengthResponseData == 256)
        #expect(wifi.passPhrase == "secret" && wifi.channelInfoChannelNumber == 6 && wifi.bandInfoSupportedBands == [0x14])
        #expect(wifi.channelInfoOperatingClass == nil)
        #expect(other == ["x": 1] && decoded[2].type.rawValue == 9 && decoded[2].version == 2)
        #expect(CBOR.array(decoded.map(\.cbor)) == methods)
        #expect(NfcOptions(maxLengthCommandData: 255, maxLengthResponseData: 256).cbor == [0: 255, 1: 256])
        expectCBORError(.invalidValue, at: "top level") { () throws(CBORError) in
            _ = try DeviceRetrievalMethod(cbor: [2, 1], at: .root)
        }
    }

    @Test("missing Security and wrong types name their path")
    func engagementErrors() throws {
        let cbor = try CBOR.decode(annexD("device_engagement"))
        expectCBORError(.missingValue, at: "top level") { () throws(CBORError) in
            _ = try DeviceEngagement(cbor: removing(1, from: cbor), at: .root)
        }
        expectCBORError(.unexpectedType, at: "[0]") { () throws(CBORError) in
            _ = try DeviceEngagement(cbor: replacing(0, with: 1, in: cbor), at: .root)
        }
        expectCBORError(.unexpectedType, at: "[2][0][2][1]") { () throws(CBORError) in
            _ = try DeviceEngagement(cbor: replacing(2, with: [[2, 1, [0: false, 1: "yes"]]], in: cbor), at: .root)
        }
        expectCBORError(.unexpectedType, at: "[1][1]") { () throws(CBORError) in
            _ = try DeviceEngagement(cbor: replacing(1, with: [1, .byteString([0xa0])], in: cbor), at: .root)
        }
        expectCBORError(.missingValue, at: "[1][1]<<>>") { () throws(CBORError) in
            _ = try DeviceEngagement(cbor: replacing(1, with: [1, .encodedCBOR([0xa0])], in: cbor), at: .root)
        }
    }

    @Test("the Annex D mdoc: URI round-trips to the device_engagement bytes")
    func uriRoundTrip() throws {
        let uri = try MdocURI(Self.annexDURI)
        #expect(uri.deviceEngagementBytes.bytes == annexD("device_engagement"))
        #expect(uri.description == Self.annexDURI)
        let built = MdocURI(deviceEngagementBytes: try EmbeddedCBOR(bytes: annexD("device_engagement")))
        #expect(built.description == Self.annexDURI)
        #expect(uri.deviceEngagementBytes.value.bleOptions?.centralClientModeUUID == Self.centralUUID)
    }

    @Test("padding, scheme case and surrounding whitespace are tolerated")
    func uriLenient() throws {
        let payload = Self.annexDURI.dropFirst("mdoc:".count)
        var padded = String(payload)
        while padded.utf8.count % 4 != 0 { padded += "=" }
        #expect(padded.hasSuffix("="))
        for text in ["mdoc:" + padded, "MDOC:" + payload, "Mdoc:" + payload, " mdoc:\(payload)\n"] {
            #expect(try MdocURI(text).deviceEngagementBytes.bytes == annexD("device_engagement"))
        }
    }

    @Test("a URI wrapped over lines or broken by spaces is read as the URI without them")
    func uriWrapped() throws {
        let payload = String(Self.annexDURI.dropFirst("mdoc:".count))
        let (head, tail) = (payload.prefix(40), payload.dropFirst(40))
        for text in [
            "mdoc:\(head)\n\(tail)", "mdoc:\(head)\r\n\(tail)", "mdoc:\n\(head) \(tail)", "mdoc: \(head)\t\(tail)\n",
            "  mdoc:\(head)\n    \(tail)", "mdoc:" + payload.map { "\($0) " }.joined(),
        ] {
            #expect(try MdocURI(text).deviceEngagementBytes.bytes == annexD("device_engagement"), "\(text)")
        }
    }

    @Test("a character outside base64url is named with its place in the URI")
    func uriCharacterPlace() {
        let payload = String(Self.annexDURI.dropFirst("mdoc:".count))
        let (head, tail) = (payload.prefix(40), payload.dropFirst(40))
        let cases: [(String, String)] = [
            // Counted from the m of mdoc:, white space included.
            ("mdoc:\(head)!\(tail)", "\"!\" at character 46 is not a base64url character"),
            ("  mdoc:\(head)\n\(tail)/", "\"/\" at character \(5 + payload.count + 2) is not a base64url character"),
            ("mdoc:\(head)\u{00A0}\(tail)", "U+00A0 at character 46 is not a base64url character"),
            ("mdoc:\(head)\u{1B}\(tail)", "U+001B at character 46 is not a base64url character"),
            ("mdoc:\(head)=\(tail)", "\"\(tail.first!)\" at character 47 is after the \"=\" padding"),
        ]
        for (text, reason) in cases {
            do {
                _ = try MdocURI(text)
                Issue.record("accepted: \(text)")
            } catch {
                #expect(error.code == .invalidBase64URL)
                #expect(error.description == "the text after \"mdoc:\" is not base64url: \(reason)", "\(text)")
            }
        }
    }

    @Test("a bad mdoc: URI says what is wrong")
    func uriErrors() {
        let payload = String(Self.annexDURI.dropFirst("mdoc:".count))
        let cases: [(String, MdocURIError.Code)] = [
            ("https:" + payload, .wrongScheme),
            (payload, .wrongScheme),
            ("mdoc", .wrongScheme),
            ("mdoc:", .invalidBase64URL),
            ("mdoc:" + payload.replacingOccurrences(of: "_", with: "/"), .invalidBase64URL),
            ("mdoc:" + payload + "!", .invalidBase64URL),
            ("mdoc:" + Base64URL.encode([0xa0]), .invalidDeviceEngagement),
            ("mdoc:" + Base64URL.encode(Array(annexD("device_engagement").dropLast())), .invalidDeviceEngagement),
        ]
        for (text, code) in cases {
            #expect(throws: MdocURIError(code, "")) { try MdocURI(text) }
        }
        do {
            _ = try MdocURI("mdoc:" + Base64URL.encode([0xa0]))
            Issue.record("an empty map was accepted as a DeviceEngagement")
        } catch {
            #expect(error.underlying?.code == .missingValue)
            #expect(error.description.contains("not a DeviceEngagement"))
        }
    }
}
