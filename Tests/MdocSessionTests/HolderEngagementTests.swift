import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel
import MdocSession
import MdocTestSupport
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

@Suite("HolderSession device engagement (ISO/IEC 18013-5 8.2.1.1, 8.2.2.3)")
struct HolderEngagementTests {
    static func holder(_ options: BleOptions, eDeviceKey: PrivateKey? = nil) throws -> HolderSession {
        try HolderSession(
            credentials: [], eDeviceKey: eDeviceKey, bleOptions: options)
    }

    @Test("the mdoc: URI parses back to the engagement's exact bytes, with version 1.0, cipher suite 1 and EDeviceKey")
    func uriRoundTrip() throws {
        let key = try PrivateKey(generating: .p256)
        let holder = try Self.holder(.offering(peripheralServerMode: true, centralClientMode: true), eDeviceKey: key)
        let parsed = try MdocURI(holder.mdocURI.description)
        #expect(parsed.deviceEngagementBytes.bytes == holder.deviceEngagement.bytes)
        let engagement = parsed.deviceEngagementBytes.value
        #expect(engagement.version == "1.0")
        #expect(engagement.security.cipherSuiteIdentifier == .suite1)
        #expect(try engagement.security.eDeviceKeyBytes.value.publicKey() == key.publicKey)
        #expect(holder.mdocURI.description.hasPrefix("mdoc:"))
    }

    @Test("one BLE method, type 2 version 1, with keys 0 and 1 and a UUID for each offered mode")
    func bleMethod() throws {
        let holder = try Self.holder(.offering(peripheralServerMode: true, centralClientMode: false))
        let methods = try #require(holder.deviceEngagement.value.deviceRetrievalMethods)
        #expect(methods.count == 1)
        #expect(methods.first?.type == .ble)
        #expect(methods.first?.version == 1)
        let options = try #require(methods.first?.bleOptions)
        #expect(options.peripheralServerModeSupported)
        #expect(!options.centralClientModeSupported)
        #expect(options.peripheralServerModeUUID != nil)
        #expect(options.centralClientModeUUID == nil)
        // Both flags are in the encoding even when one is false.
        let raw = try CBOR.decode(holder.deviceEngagement.bytes)
        let rawOptions = try raw.map(at: .root)[int: 2]?.array(at: .root).first?.array(at: .root).last?.map(at: .root)
        #expect(rawOptions?[int: 0] == .boolean(true))
        #expect(rawOptions?[int: 1] == .boolean(false))
    }

    @Test("each engagement gets new random service UUIDs")
    func randomUUIDs() {
        let first = BleOptions.offering(peripheralServerMode: true, centralClientMode: true)
        let second = BleOptions.offering(peripheralServerMode: true, centralClientMode: true)
        #expect(first.peripheralServerModeUUID != second.peripheralServerModeUUID)
        #expect(first.centralClientModeUUID != second.centralClientModeUUID)
        #expect(first.peripheralServerModeUUID != first.centralClientModeUUID)
    }

    @Test("the Ident is BLEIdent of the engagement's EDeviceKeyBytes, as a reader parses them from the URI")
    func ident() throws {
        let holder = try Self.holder(.offering(peripheralServerMode: false, centralClientMode: true))
        let parsed = try MdocURI(holder.mdocURI.description)
        #expect(holder.bleIdent == (try BLEIdent.compute(eDeviceKeyBytes: parsed.deviceEngagementBytes.value.security.eDeviceKeyBytes)))
        #expect(holder.bleIdent.count == BLEIdent.byteCount)
        let reader = try ReaderSession(
            uri: parsed, request: [RequestPreset.ageOver18.docRequestSpec()], trustAnchors: [], now: { TestPKI.referenceTime })
        #expect(reader.bleIdent == holder.bleIdent)
    }

    @Test("options offering no mode, or a mode without its UUID, are refused")
    func invalidOptions() {
        #expect(throws: SessionError(.invalidEngagement, "")) {
            try Self.holder(.offering(peripheralServerMode: false, centralClientMode: false))
        }
        #expect(throws: SessionError(.invalidEngagement, "")) {
            try Self.holder(BleOptions(peripheralServerModeSupported: true))
        }
        #expect(throws: SessionError(.invalidEngagement, "")) {
            try Self.holder(BleOptions(centralClientModeSupported: true))
        }
    }

    @Test("an EdDSA key cannot be EDeviceKey; X25519 can")
    func curves() throws {
        #expect(throws: SessionError(.invalidEngagement, "")) {
            try Self.holder(.offering(peripheralServerMode: true, centralClientMode: false), eDeviceKey: PrivateKey(generating: .ed25519))
        }
        let holder = try Self.holder(.offering(peripheralServerMode: true, centralClientMode: false), eDeviceKey: PrivateKey(generating: .x25519))
        #expect(holder.deviceEngagement.value.security.eDeviceKeyBytes.value.curve == .x25519)
    }
}
