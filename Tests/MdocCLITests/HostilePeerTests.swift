import Foundation
import MdocBLE
import MdocCBOR
import MdocModel
import MdocTestPeers
import Testing

/// `mdoc-holder present` against a GATT client that breaks the 18013-5 connection sequence
/// (8.3.3.1.1.4): a client that breaks it before State 0x01 is dropped and the holder serves the
/// next reader; a session it breaks after the start ends with exit 8 within the holder's
/// `--timeout`, never a hang. The client here is the toolkit's own GATT client, driven step by
/// step.
@Suite struct HostilePeerTests {
    /// The holder's `--timeout`.
    static let holderTimeout = 30
    /// How long after the fault the holder must have ended: its timeout, and as long again for a
    /// test process busy with the rest of the suite (more under sanitizers, ``TimeoutScale``).
    static let exitBound = Double(holderTimeout + 30 * TimeoutScale.factor)

    /// Starts a holder offering mdoc peripheral server mode with `--timeout 30` (this test
    /// process may be slow to act while the rest of the suite runs), connects a raw GATT client
    /// to it and returns both, with the Client2Server and State characteristics.
    private static func connect() async throws
        -> (BackgroundProgram, GATTClient, client2Server: GATTRemoteCharacteristic, state: GATTRemoteCharacteristic, uri: String)
    {
        let holder = try BackgroundProgram(
            "mdoc-holder",
            ["present", "--credential", "Certs/demo/mdl.mdoc", "--yes", "--ble-mode", "peripheral", "--no-qr", "--timeout", "\(holderTimeout)"],
            environment: SimHostileLink().environment)
        let uri = try #require(await holder.awaitLine(startingWith: "mdoc:", number: 1, timeout: 90), "\(holder.standardError)")
        let options = try #require(try MdocURI(uri).deviceEngagementBytes.value.bleOptions)
        let uuid = try #require(options.peripheralServerModeUUID)
        let client = GATTClient(bearer: try await SimLink.connect(serviceUUID: uuid, timeout: .seconds(30)))
        _ = try await client.exchangeMTU(515)
        let characteristics = try await client.discoverCharacteristics(
            of: try await client.discoverPrimaryService(BluetoothUUID(uuid)))
        let client2Server = try #require(characteristics.first { $0.uuid == MdocGATTProfile.client2Server(mode: .peripheralServer) })
        let state = try #require(characteristics.first { $0.uuid == MdocGATTProfile.state(mode: .peripheralServer) })
        return (holder, client, client2Server, state, uri)
    }

    @Test func dataBeforeStateStartDropsThatClientAndTheNextReaderIsServed() async throws {
        let (holder, client, client2Server, _, uri) = try await Self.connect()
        defer { client.close() }
        try await client.writeWithoutResponse([0x00, 0xA0], to: client2Server)
        // Dropped: its link ends, and it was never the holder's reader.
        while try await client.nextNotification() != nil {}
        try await LinkFaultTests.verifySession(uri, over: SimHostileLink(), context: "after data before State 0x01")
        let result = await holder.awaitExit(timeout: LiveSession.waitTimeout)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(!result.standardError.contains("error"), "\(result.standardError)")
    }

    @Test func aClientThatNeverSubscribesCannotStallTheHolder() async throws {
        let (holder, client, client2Server, state, _) = try await Self.connect()
        defer { client.close() }
        // Started, but subscribed to nothing: the holder's answer (status 11 to this garbage)
        // can never be delivered, so it must give up after --timeout.
        try await client.writeWithoutResponse([MdocGATTProfile.stateStart], to: state)
        try await client.writeWithoutResponse([0x00, 0xA0], to: client2Server)
        let started = Date()
        let result = await holder.awaitExit(timeout: LiveSession.waitTimeout)
        #expect(result.status == 8, "\(result.standardError)")
        #expect(result.standardError.contains("messageDecodingFailed"), "\(result.standardError)")
        #expect(Date().timeIntervalSince(started) < Self.exitBound)
    }
}
