#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MdocBLE
import MdocCBOR
import MdocCrypto
import MdocModel
import MdocSession
import MdocTestSupport

/// How far a ``HostileReader`` goes through the connection sequence of ISO/IEC 18013-5
/// 8.3.3.1.1.4 (mdoc peripheral server mode) and the session before it vanishes or stalls.
package enum ReaderPhase: String, CaseIterable, Sendable, CustomStringConvertible {
    /// The link is up; nothing was exchanged.
    case connected
    /// ATT_MTU exchanged.
    case mtuExchanged
    /// The 18013-5 service and its characteristics discovered.
    case discovered
    /// Notifications of State and Server2Client enabled.
    case subscribed
    /// State 0x01 written: the session started.
    case started
    /// The first chunks of SessionEstablishment sent, not the last.
    case midRequest
    /// SessionEstablishment sent whole; the response not yet taken.
    case requestSent
    /// The DeviceResponse received; the session not ended.
    case responseReceived

    package var description: String { rawValue }

    /// Whether the reader has not started the session by this phase: the holder does not take
    /// it for its reader yet (ISO/IEC 18013-5 8.3.3.1.1.4).
    package var isBeforeStart: Bool {
        ReaderPhase.allCases.firstIndex(of: self)! < ReaderPhase.allCases.firstIndex(of: .started)!
    }
}

/// A GATT client in this test process playing the mdoc reader against a real `mdoc-holder` in
/// mdoc peripheral server mode: it walks the connection sequence one ``ReaderPhase`` at a time
/// and sends the real SessionEstablishment of a ``ReaderSession`` in the chunks a test chooses,
/// as raw ATT Write Commands, so nothing in this process stops a broken chunk.
package final class HostileReader {
    /// A characteristic whose notifications the reader enables at `.subscribed`.
    package enum Notification: Sendable {
        case state
        case server2Client
    }

    package let link: any HostileLink
    /// What the reader subscribes to at `.subscribed`.
    package let subscriptions: Set<Notification>
    package private(set) var session: ReaderSession
    private let serviceUUID: UUID
    private let request: [UInt8]
    private var bearer: (any ATTBearer)?
    private var client: GATTClient?
    private var characteristics: [GATTRemoteCharacteristic] = []
    /// The longest pause between two chunks of the holder's message the reader sits through;
    /// after a longer one it gives up on the message, as a reader bounding that wait too
    /// tightly does: ``receiveResponse()`` throws, the link left up for the test to end the
    /// session (closing it at once could fail the holder's send still under way). `nil`: it
    /// waits as long as the link lasts.
    package var maximumChunkGap: Duration?
    /// The ATT_MTU agreed; 23 before the exchange.
    package private(set) var mtu = 23
    /// How far the sequence went.
    package private(set) var phase: ReaderPhase?

    /// A reader for the holder that showed `uri`, asking for `specs` (age_over_18 of the mDL
    /// unless given), enabling the notifications of `subscriptions` (both by default, as
    /// 8.3.3.1.1.4 has it), with `eReaderKey` as its ephemeral key (a new one when `nil`), so
    /// that a test can derive the session keys (9.1.1.5) and read the holder's messages its own
    /// way.
    package init(uri: String, link: any HostileLink, asking specs: [DocRequestSpec]? = nil,
                subscriptions: Set<Notification> = [.state, .server2Client], eReaderKey: PrivateKey? = nil) throws {
        self.link = link
        self.subscriptions = subscriptions
        let engagement = try MdocURI(uri)
        guard let uuid = engagement.deviceEngagementBytes.value.bleOptions?.peripheralServerModeUUID else {
            throw PeerError("the holder does not offer mdoc peripheral server mode")
        }
        serviceUUID = uuid
        var elements = OrderedMap<String, Bool>()
        elements["age_over_18"] = false
        let spec = DocRequestSpec(docType: DocType.mDL, nameSpaces: [NameSpace.mDL: elements])
        session = try ReaderSession(
            uri: engagement, request: specs ?? [spec], trustAnchors: [try DemoMaterial.iaca()], eReaderKey: eReaderKey, now: { Date() })
        guard case .send(let establishment) = try session.start() else {
            throw PeerError("the reader session did not start")
        }
        request = establishment
    }

    deinit {
        close()
    }

    /// Goes through the sequence up to and including `last`.
    package func run(until last: ReaderPhase) async throws {
        for phase in ReaderPhase.allCases {
            try await step(phase)
            if phase == last { return }
        }
    }

    /// Sends SessionEstablishment broken by `fault`, after ``run(until:)`` reached `.started`.
    /// Sends stop quietly when the holder closed the link (as it must for some faults).
    package func sendRequest(_ fault: ChunkFault) async throws {
        try await send(fault.chunks(of: request, mtu: mtu))
    }

    /// Sends a message of `bytes` octets (not CBOR) in the largest chunks the link allows, after
    /// ``run(until:)`` reached `.started`.
    package func sendFlood(bytes: Int) async throws {
        try await send(ChunkFault.flood(bytes: bytes, mtu: mtu))
    }

    /// Sends `message` whole in correct chunks, after ``run(until:)`` reached `.started`: a
    /// SessionData of the test's own making, such as the status that ends a session.
    package func send(message: [UInt8]) async throws {
        try await send(ChunkFault.pieces(of: message))
    }

    /// The holder's next whole message on Server2Client, after the request was sent.
    package func receiveResponse() async throws -> [UInt8] {
        try await receiveMessage()
    }

    /// Ends the session with the transport's own termination (ISO/IEC 18013-5 8.3.3.1.1.5): State
    /// 0x02, and no SessionData status; the link closes after it.
    package func endWithState() async throws {
        try await requireClient().writeWithoutResponse(
            [MdocGATTProfile.stateEnd], to: try characteristic(MdocGATTProfile.state(mode: .peripheralServer)))
        close()
    }

    /// Vanishes: the link closes without State 0x02.
    package func close() {
        client?.close()
        bearer?.close()
    }

    /// Waits until the holder ends the link; notifications it sends meanwhile are skipped.
    package func awaitLinkEnd() async throws {
        let client = try requireClient()
        while try await client.nextNotification() != nil {}
    }

    // MARK: Steps

    private func step(_ phase: ReaderPhase) async throws {
        switch phase {
        case .connected:
            let bearer = try await link.connect(serviceUUID: serviceUUID, timeout: .seconds(30 * TimeoutScale.factor))
            self.bearer = bearer
            // The holder under test answers in this process, which a sanitizer slows as much
            // as the rest: the ATT transaction's bound grows as the tests' bounds do.
            client = GATTClient(bearer: bearer, transactionTimeout: GATTClient.transactionTimeout * TimeoutScale.factor)
        case .mtuExchanged:
            mtu = try await requireClient().exchangeMTU(MdocGATTClientTransport.requestedMTU)
        case .discovered:
            let client = try requireClient()
            characteristics = try await client.discoverCharacteristics(
                of: try await client.discoverPrimaryService(BluetoothUUID(serviceUUID)))
        case .subscribed:
            if subscriptions.contains(.state) {
                try await requireClient().setNotifications(true, for: try characteristic(MdocGATTProfile.state(mode: .peripheralServer)))
            }
            if subscriptions.contains(.server2Client) {
                try await requireClient().setNotifications(true, for: try characteristic(MdocGATTProfile.server2Client(mode: .peripheralServer)))
            }
        case .started:
            try await requireClient().writeWithoutResponse(
                [MdocGATTProfile.stateStart], to: try characteristic(MdocGATTProfile.state(mode: .peripheralServer)))
        case .midRequest:
            let chunks = ChunkFault.pieces(of: request)
            try await send(Array(chunks.prefix(chunks.count - 1)))
        case .requestSent:
            try await send(Array(ChunkFault.pieces(of: request).suffix(1)))
        case .responseReceived:
            _ = try await receiveMessage()
        }
        self.phase = phase
    }

    /// Writes `chunks` to Client2Server as raw Write Commands; stops at the first that finds the
    /// link closed.
    /// Returns false when the link was closed.
    @discardableResult
    private func send(_ chunks: [[UInt8]]) async throws -> Bool {
        guard let bearer else { throw PeerError("not connected") }
        let handle = try characteristic(MdocGATTProfile.client2Server(mode: .peripheralServer)).valueHandle
        for chunk in chunks {
            do {
                try await bearer.send(ATTPDU.writeCommand(attributeHandle: handle, attributeValue: chunk).bytes)
            } catch {
                // The program under test closed the link, as it must for some faults.
                guard error.code == .linkClosed else { throw error }
                return false
            }
        }
        return true
    }

    /// The next whole message on Server2Client.
    private func receiveMessage() async throws -> [UInt8] {
        let client = try requireClient()
        let handle = try characteristic(MdocGATTProfile.server2Client(mode: .peripheralServer)).valueHandle
        var reassembler = MessageReassembler(mtu: mtu)
        var lastChunkArrival: ContinuousClock.Instant?
        while let (from, value) = try await client.nextNotification() {
            guard from == handle else { continue }
            let now = ContinuousClock.now
            if let maximumChunkGap, let lastChunkArrival, now - lastChunkArrival > maximumChunkGap {
                throw PeerError("gave up on the holder's message after a pause of \(now - lastChunkArrival) between its chunks")
            }
            lastChunkArrival = now
            if let message = try reassembler.append(value) { return message }
        }
        throw PeerError("the holder closed the link before its response")
    }

    private func requireClient() throws -> GATTClient {
        guard let client else { throw PeerError("not connected") }
        return client
    }

    private func characteristic(_ uuid: BluetoothUUID) throws -> GATTRemoteCharacteristic {
        guard let found = characteristics.first(where: { $0.uuid == uuid }) else {
            throw PeerError("characteristic \(uuid) not discovered")
        }
        return found
    }
}
