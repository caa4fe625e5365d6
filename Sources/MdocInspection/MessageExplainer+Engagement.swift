import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel
import MdocText

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension MessageExplainer {
    /// DeviceEngagement (ISO/IEC 18013-5 8.2.1.1).
    static func deviceEngagement(_ engagement: DeviceEngagement) -> [Explanation] {
        var lines: [Explanation] = [
            Explanation("Version", "\(engagement.version)"),
            Explanation("Security", children: [
                Explanation("Cipher suite", cipherSuite(engagement.security.cipherSuiteIdentifier)),
                Explanation("EDeviceKey", "EDeviceKeyBytes, \(engagement.security.eDeviceKeyBytes.bytes.count) bytes",
                            children: coseKey(engagement.security.eDeviceKeyBytes.value.cbor)),
            ]),
        ]
        if let methods = engagement.deviceRetrievalMethods {
            lines.append(Explanation("Device retrieval methods", "\(methods.count)", children: methods.map(retrievalMethod)))
        } else {
            lines.append(Explanation("Device retrieval methods", "absent (as in NFC engagement, where the handover carries them)"))
        }
        if let server = engagement.serverRetrievalMethods {
            lines.append(serverRetrievalMethods(server))
        }
        if let protocolInfo = engagement.protocolInfo {
            lines.append(diagnostic("Protocol info", protocolInfo))
        }
        if let origins = engagement.originInfos {
            lines.append(Explanation("Origin infos", "\(origins.count)", children: origins.enumerated().map { index, origin in
                originInfo(origin, index: index)
            }))
        }
        if let capabilities = engagement.capabilities {
            lines.append(Explanation("Capabilities", "\(capabilities.count)", children: capabilities.entries.map { entry in
                diagnostic("Capability \(entry.key.diagnosticNotation())", entry.value)
            }))
        }
        return lines + otherEntries(engagement.additionalEntries)
    }

    /// The meaning of a cipher suite identifier (ISO/IEC 18013-5 9.1.5.2).
    static func cipherSuite(_ suite: Security.CipherSuiteIdentifier) -> TerminalText {
        suite == .suite1
            ? "1 (ECDH or ECDHE, HKDF with SHA-256, AES-256-GCM; 9.1.5.2)"
            : "\(suite.rawValue) (not defined by ISO/IEC 18013-5:2021)"
    }

    /// One DeviceRetrievalMethod with its options named.
    static func retrievalMethod(_ method: DeviceRetrievalMethod) -> Explanation {
        let label: TerminalText = "\(method.type), version \(method.version)"
        switch method.retrievalOptions {
        case .ble(let options):
            return Explanation(label, children: bleOptions(options))
        case .nfc(let options):
            var lines: [Explanation] = []
            if let command = options.maxLengthCommandData { lines.append(Explanation("Maximum command data length", "\(command) bytes")) }
            if let response = options.maxLengthResponseData { lines.append(Explanation("Maximum response data length", "\(response) bytes")) }
            let known: [Int64] = [NfcOptions.Key.maxLengthCommandData, NfcOptions.Key.maxLengthResponseData]
            return Explanation(label, children: lines + otherEntries(options.options, excludingInt: known))
        case .wifiAware(let options):
            var lines: [Explanation] = []
            if let passPhrase = options.passPhrase { lines.append(Explanation("Pass-phrase", "\"\(passPhrase)\"")) }
            if let operatingClass = options.channelInfoOperatingClass {
                lines.append(Explanation("Channel info operating class", "\(operatingClass)"))
            }
            if let channel = options.channelInfoChannelNumber { lines.append(Explanation("Channel number", "\(channel)")) }
            if let bands = options.bandInfoSupportedBands { lines.append(Explanation.bytes("Supported bands", bands)) }
            let known: [Int64] = [
                WifiOptions.Key.passPhrase, WifiOptions.Key.channelInfoOperatingClass,
                WifiOptions.Key.channelInfoChannelNumber, WifiOptions.Key.bandInfoSupportedBands,
            ]
            return Explanation(label, children: lines + otherEntries(options.options, excludingInt: known))
        case .other(let options):
            return Explanation(label, children: [diagnostic("Options", options)])
        }
    }

    /// BleOptions (ISO/IEC 18013-5 8.2.1.1, 8.3.3.1.1): both modes, their service UUIDs and the
    /// device address.
    static func bleOptions(_ options: BleOptions) -> [Explanation] {
        var lines: [Explanation] = [
            Explanation("mdoc peripheral server mode", options.peripheralServerModeSupported ? "supported" : "not supported"),
        ]
        if let uuid = options.peripheralServerModeUUID {
            lines.append(Explanation("Peripheral server mode service UUID", "\(uuid.uuidString)"))
        }
        lines.append(Explanation("mdoc central client mode", options.centralClientModeSupported ? "supported" : "not supported"))
        if let uuid = options.centralClientModeUUID {
            lines.append(Explanation("Central client mode service UUID", "\(uuid.uuidString)"))
        }
        if let address = options.mdocBLEDeviceAddress {
            lines.append(Explanation("mdoc BLE device address", "\(address.map { Hex.encode([$0]) }.joined(separator: ":"))"))
        }
        return lines + otherEntries(options.additionalEntries)
    }

    /// ServerRetrievalMethods (ISO/IEC 18013-5 8.2.1.2): `webApi` and `oidc`, each
    /// `[version, issuer URL, server retrieval token]`.
    static func serverRetrievalMethods(_ value: CBOR) -> Explanation {
        guard let map = value.mapValue else { return diagnostic("Server retrieval methods", value) }
        return Explanation("Server retrieval methods", children: map.entries.map { entry in
            let name = entry.key.textValue ?? entry.key.diagnosticNotation()
            guard let fields = entry.value.arrayValue, fields.count == 3, let version = fields[0].uint64Value,
                let url = fields[1].textValue, let token = fields[2].textValue
            else { return diagnostic("\(name)", entry.value) }
            return Explanation("\(name)", children: [
                Explanation("Version", "\(version)"),
                Explanation("Issuer URL", "\(url)"),
                Explanation("Server retrieval token", "\(token)"),
            ])
        })
    }

    /// One OriginInfo (ISO/IEC 18013-5 second edition, 8.2.1.1).
    static func originInfo(_ origin: OriginInfo, index: Int) -> Explanation {
        let category: TerminalText = switch origin.cat {
        case 0: "0 (delivery)"
        case 1: "1 (receive)"
        default: "\(origin.cat)"
        }
        var lines = [Explanation("Category", category), Explanation("Type", origin.type == 1 ? "1 (website)" : "\(origin.type)")]
        if let url = origin.baseURL {
            lines.append(Explanation("Base URL", "\(url)"))
        } else {
            lines.append(diagnostic("Details", origin.details))
        }
        return Explanation("OriginInfo \(index)", children: lines + otherEntries(origin.additionalEntries))
    }

    /// A COSE_Key (RFC 9052 section 7, RFC 9053 section 7) from its map, every parameter named,
    /// whether or not the toolkit can use the key. A private key's `d` is shown as the map holds
    /// it: ``InspectedContent`` puts `CBOR.redactedPrivateKey` in its place unless asked not to.
    static func coseKey(_ item: CBOR) -> [Explanation] {
        guard let map = item.mapValue else { return [diagnostic("Not a COSE_Key map", item)] }
        let symmetric = map[int: COSEKey.Label.keyType]?.int64Value == 4
        var lines: [Explanation] = []
        for entry in map.entries {
            guard let label = entry.key.int64Value else {
                lines.append(diagnostic("\(entry.key.diagnosticNotation())", entry.value))
                continue
            }
            switch (label, entry.value) {
            case (-1, CBOR.redactedPrivateKey) where symmetric:
                lines.append(Explanation("k (-1)", "present: this is a secret key (not shown)"))
            case (-1, .byteString(let k)) where symmetric:
                lines.append(Explanation.bytes("k (-1)", k))
            case (COSEKey.Label.keyType, _):
                let name: TerminalText = switch entry.value.int64Value {
                case 1: "1 (OKP, octet key pair)"
                case 2: "2 (EC2, elliptic curve with x and y)"
                case 4: "4 (Symmetric)"
                default: "\(entry.value.diagnosticNotation())"
                }
                lines.append(Explanation("kty (1)", name))
            case (COSEKey.Label.curve, _):
                let curve = entry.value.int64Value.flatMap { Curve(coseIdentifier: $0) }
                lines.append(Explanation("crv (-1)", curve.map { "\(entry.value.diagnosticNotation()) (\($0))" } ?? "\(entry.value.diagnosticNotation()) (not a curve ISO/IEC 18013-5 uses)"))
            case (COSEKey.Label.x, .byteString(let x)):
                lines.append(Explanation.bytes("x (-2)", x))
            case (COSEKey.Label.y, .byteString(let y)):
                lines.append(Explanation.bytes("y (-3)", y))
            case (COSEKey.Label.d, CBOR.redactedPrivateKey):
                lines.append(Explanation("d (-4)", "present: this is a private key (not shown)"))
            case (COSEKey.Label.d, .byteString(let d)):
                lines.append(Explanation.bytes("d (-4)", d))
            case (2, .byteString(let kid)):
                lines.append(Explanation.bytes("kid (2)", kid))
            case (3, _):
                lines.append(Explanation("alg (3)", algorithmName(entry.value)))
            default:
                lines.append(diagnostic("\(label)", entry.value))
            }
        }
        // A key whose d is not shown is checked without it.
        let hidden = map[int: COSEKey.Label.d] == CBOR.redactedPrivateKey
        var checked = map
        if hidden {
            checked[int: COSEKey.Label.d] = nil
        }
        do {
            let key = try COSEKey(cbor: .map(checked), at: .root)
            let kind = hidden ? "private key (its d not shown, so not checked)" : key.d == nil ? "public key" : "private key"
            lines.append(Explanation("Usable", "yes, a \(key.curve) \(kind)"))
        } catch {
            lines.append(Explanation("Usable", "no: \(error)"))
        }
        return lines
    }

    /// SessionTranscript (ISO/IEC 18013-5 9.1.5.1): the engagement and reader key as embedded,
    /// and the handover.
    static func sessionTranscript(_ transcript: SessionTranscript) -> [Explanation] {
        var lines: [Explanation] = []
        if let engagement = transcript.deviceEngagementBytes {
            lines.append(Explanation(
                "DeviceEngagementBytes", "\(engagement.bytes.count) bytes",
                children: [Explanation("DeviceEngagement", children: deviceEngagement(engagement.value))]))
        } else {
            lines.append(Explanation("DeviceEngagementBytes", "null (as in ISO/IEC TS 18013-7)"))
        }
        if let readerKey = transcript.eReaderKeyBytes {
            lines.append(Explanation("EReaderKeyBytes", "\(readerKey.bytes.count) bytes", children: coseKey(readerKey.value.cbor)))
        } else {
            lines.append(Explanation("EReaderKeyBytes", "null (as in ISO/IEC TS 18013-7)"))
        }
        lines.append(handover(transcript.handover))
        return lines
    }

    /// The Handover of a SessionTranscript: QR (null), NFC (the NDEF Handover Select and
    /// Request messages), or another form.
    static func handover(_ handover: Handover) -> Explanation {
        switch handover {
        case .qr:
            return Explanation("Handover", "null: QR code engagement (QRHandover)")
        case .nfc(let select, let request):
            var lines = [ndefBytes("Handover Select message", select)]
            if let request {
                lines.append(ndefBytes("Handover Request message", request))
            } else {
                lines.append(Explanation("Handover Request message", "null: static handover"))
            }
            return Explanation("Handover", "NFC engagement (NFCHandover)", children: lines)
        case .other(let value):
            return diagnostic("Handover (not one ISO/IEC 18013-5:2021 defines)", value)
        }
    }
}
