#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MdocBLE
import MdocCBOR
import MdocModel
import MdocSession

/// How far a ``HostileHolder`` lets a session with a reader go before it vanishes or stalls.
package enum HolderPhase: String, CaseIterable, Sendable, CustomStringConvertible {
    /// The reader connected; nothing was exchanged.
    case accepted
    /// The reader exchanged ATT_MTU.
    case mtuExchanged
    /// The reader enabled notifications of State and Server2Client.
    case subscribed
    /// The reader wrote State 0x01.
    case started
    /// The first chunk of the reader's SessionEstablishment arrived.
    case midRequest
    /// The whole SessionEstablishment arrived and the response is built, not sent.
    case requestReceived
    /// The first chunks of the response were sent, not the last.
    case midResponse

    package var description: String { rawValue }

    /// Whether the reader has not started the session by this phase: a link that drops then
    /// is no session, and the reader connects again (ISO/IEC 18013-5 8.3.3.1.1.4).
    package var isBeforeStart: Bool {
        HolderPhase.allCases.firstIndex(of: self)! < HolderPhase.allCases.firstIndex(of: .started)!
    }
}

/// A GATT server in this test process playing the mdoc, in mdoc peripheral server mode, against
/// a real `mdoc-reader`: a real ``HolderSession`` with the demo mDL (or a credential the test
/// gives) answers the request, and the response leaves in the chunks a test chooses, as raw ATT
/// notifications.
package final class HostileHolder {
    package let link: any HostileLink
    /// The engagement the reader under test is given.
    package let uri: String
    private var session: HolderSession
    private let serviceUUID: UUID
    private let server: GATTServer
    private var connection: GATTServerConnection?
    private var bearer: (any ATTBearer)?
    private var reassembler = MessageReassembler(mtu: 23)
    private var mtu = 23
    private var exchangedMTU = false
    private var started = false
    private var chunksReceived = 0
    /// The encoded response SessionData, once the request was answered.
    private var response: [UInt8]?
    /// The reader's messages after the request, not yet taken by ``termination()``.
    private var laterMessages: [[UInt8]] = []
    /// Whether the reader wrote State 0x02 (8.3.3.1.1.5).
    private var stateEnded = false
    /// The request as the holder session received it (the DeviceRequest and the session's
    /// transcript), once it arrived.
    package private(set) var received: ReceivedRequest?
    /// Whether the holder reads the SessionEstablishment past its tags, as a lenient decoder
    /// does: EReaderKeyBytes sent as a bare byte string taken as if under its tag 24, and `data`
    /// sent under a tag taken as the byte string inside (ISO/IEC 18013-5 9.1.1.4 gives
    /// `eReaderKey` the tag and `data` none). A conforming holder refuses both.
    package var readsPastTags = false
    /// The longest pause between two chunks of the reader's message the holder sits through;
    /// after a longer one it gives up on the message and closes the link, as a holder bounding
    /// that wait too tightly does. `nil`: it waits as long as the link lasts.
    package var maximumChunkGap: Duration?
    /// When the last chunk of a message not yet whole arrived.
    private var lastChunkArrival: ContinuousClock.Instant?

    /// A holder presenting the demo mDL.
    package convenience init(link: any HostileLink) throws {
        try self.init(link: link, credential: try Self.demoMDL())
    }

    /// A holder presenting `credential`.
    package init(link: any HostileLink, credential: Credential) throws {
        self.link = link
        let options = BleOptions.offering(peripheralServerMode: true, centralClientMode: false)
        session = try HolderSession(credentials: [credential], bleOptions: options)
        guard let uuid = options.peripheralServerModeUUID else { throw PeerError("no peripheral server UUID") }
        serviceUUID = uuid
        server = GATTServer(services: [MdocGATTProfile.service(mode: .peripheralServer, serviceUUID: uuid, ident: nil)])
        uri = session.mdocURI.description
    }

    deinit {
        close()
    }

    /// The committed demo mDL.
    package static func demoMDL() throws -> Credential {
        try DemoMaterial.mDL()
    }

    /// Lets the session go up to and including `last`.
    package func run(until last: HolderPhase) async throws {
        for phase in HolderPhase.allCases {
            try await step(phase)
            if phase == last { return }
        }
    }

    /// Sends the response (after `.requestReceived`) in chunks of ``ChunkFault/pieceSize``
    /// octets and a header: correct on a link whose ATT_MTU is 52 or more, too large for a
    /// smaller one, as from a holder that ignores the ATT_MTU the reader took.
    package func sendResponse() async throws {
        try await send(ChunkFault.pieces(of: try builtResponse()))
    }

    /// Sends the response broken by `fault` (after `.requestReceived`); stops quietly when the
    /// reader closed the link.
    package func sendResponse(_ fault: ChunkFault) async throws {
        try await send(fault.chunks(of: try builtResponse(), mtu: mtu))
    }

    /// Sends, as its response, a message of `bytes` octets (not CBOR) in the largest chunks the
    /// link allows.
    package func sendFlood(bytes: Int) async throws {
        try await send(ChunkFault.flood(bytes: bytes, mtu: mtu))
    }

    /// How the reader ended the session after the request (after `.requestReceived`): its next
    /// message as it arrived (SessionData with status 20, say), or `nil` when it wrote State
    /// 0x02 first; throws when the reader closes the link before either.
    package func termination() async throws -> [UInt8]? {
        try await awaitEvents { (holder: HostileHolder) -> Bool in !holder.laterMessages.isEmpty || holder.stateEnded }
        return laterMessages.isEmpty ? nil : laterMessages.removeFirst()
    }

    /// Lets the session go up to and including `last`, then vanishes there. Before the reader
    /// could start the session, the link closes on its event loop the moment `last` is reached,
    /// so the GATT server answers nothing the reader sent after it; from `.subscribed` on, the
    /// link closes once the step returns.
    package func vanish(at last: HolderPhase) async throws {
        switch last {
        case .accepted:
            try await link.accept(serviceUUID: serviceUUID, timeout: .seconds(60)).close()
        case .mtuExchanged:
            let bearer = try await link.accept(serviceUUID: serviceUUID, timeout: .seconds(60))
            let connection = GATTServerConnection(server: server, bearer: bearer)
            let (linkEnded, end) = AsyncStream<Result<Void, BLEError>>.makeStream()
            await connection.deliverEvents { event in
                switch event {
                case .success(.mtuExchanged?): return bearer.close()
                case .success(_?): return
                case .success(nil): end.yield(.success(()))
                case .failure(let error): end.yield(.failure(error))
                }
                end.finish()
            }
            for await ending in linkEnded { try ending.get() }
            guard await connection.mtu > 23 else { throw PeerError("the reader closed the link before it exchanged ATT_MTU") }
        case .subscribed, .started, .midRequest, .requestReceived, .midResponse:
            try await run(until: last)
            close()
        }
    }

    /// Vanishes: the link closes without State 0x02.
    package func close() {
        connection?.close()
        bearer?.close()
    }

    // MARK: Steps

    private func step(_ phase: HolderPhase) async throws {
        switch phase {
        case .accepted:
            let bearer = try await link.accept(serviceUUID: serviceUUID, timeout: .seconds(60))
            self.bearer = bearer
            connection = GATTServerConnection(server: server, bearer: bearer)
        case .mtuExchanged:
            try await awaitEvents { (holder: HostileHolder) -> Bool in holder.exchangedMTU }
        case .subscribed:
            let state = MdocGATTProfile.state(mode: .peripheralServer)
            let server2Client = MdocGATTProfile.server2Client(mode: .peripheralServer)
            try await awaitEvents { (holder: HostileHolder) async throws -> Bool in
                let connection = try holder.requireConnection()
                let toState = await connection.isSubscribed(state)
                let toServer2Client = await connection.isSubscribed(server2Client)
                return toState && toServer2Client
            }
        case .started:
            try await awaitEvents { (holder: HostileHolder) -> Bool in holder.started }
        case .midRequest:
            try await awaitEvents { (holder: HostileHolder) -> Bool in holder.chunksReceived > 0 }
        case .requestReceived:
            try await awaitEvents { (holder: HostileHolder) -> Bool in holder.response != nil }
        case .midResponse:
            let chunks = ChunkFault.pieces(of: try builtResponse())
            try await send(Array(chunks.prefix(chunks.count / 2)))
        }
    }

    /// Takes the reader's GATT events until `done` holds.
    private func awaitEvents(until done: (HostileHolder) async throws -> Bool) async throws {
        let connection = try requireConnection()
        while try await !done(self) {
            guard let event = try await connection.nextEvent() else {
                throw PeerError("the reader closed the link")
            }
            try handle(event)
        }
    }

    private func handle(_ event: GATTServerEvent) throws {
        switch event {
        case .mtuExchanged(let agreed):
            exchangedMTU = true
            mtu = agreed
            reassembler.mtu = agreed
        case .subscriptionChanged:
            break
        case .written(let characteristic, let value, _):
            if characteristic == MdocGATTProfile.state(mode: .peripheralServer), value == [MdocGATTProfile.stateStart] {
                started = true
            } else if characteristic == MdocGATTProfile.state(mode: .peripheralServer), value == [MdocGATTProfile.stateEnd] {
                stateEnded = true
            } else if characteristic == MdocGATTProfile.client2Server(mode: .peripheralServer) {
                chunksReceived += 1
                let now = ContinuousClock.now
                if let maximumChunkGap, let lastChunkArrival, now - lastChunkArrival > maximumChunkGap {
                    close()
                    throw PeerError("gave up on the reader's message after a pause of \(now - lastChunkArrival) between its chunks")
                }
                lastChunkArrival = now
                if let message = try reassembler.append(value) {
                    lastChunkArrival = nil
                    if response == nil {
                        response = try answer(message)
                    } else {
                        laterMessages.append(message)
                    }
                }
            }
        }
    }

    /// The holder's answer to `request`: everything asked for, approved.
    private func answer(_ request: [UInt8]) throws -> [UInt8] {
        guard case .requestReceived(let received) = session.receive(readsPastTags ? try Self.retagged(request) : request),
              case .send(let message) = session.decide(.all(requestedIn: received.deviceRequest))
        else { throw PeerError("the holder session did not answer the request") }
        self.received = received
        return message
    }

    /// `establishment` as a decoder that reads past tags takes it: `eReaderKey` under tag 24
    /// and `data` a byte string, whatever tags they came with.
    private static func retagged(_ establishment: [UInt8]) throws -> [UInt8] {
        guard case .map(var map) = try CBOR.decode(establishment) else { throw PeerError("the SessionEstablishment is not a map") }
        if case .byteString(let key)? = map[text: "eReaderKey"] {
            map[.textString("eReaderKey")] = .tagged(CBOR.Tag.encodedCBOR, .byteString(key))
        }
        if case .tagged(_, let data)? = map[text: "data"] {
            map[.textString("data")] = data
        }
        return CBOR.map(map).encoded()
    }

    private func builtResponse() throws -> [UInt8] {
        guard let response else { throw PeerError("no request was answered yet") }
        return response
    }

    /// Sends `chunks` as raw Server2Client notifications; stops at the first that finds the link
    /// closed.
    private func send(_ chunks: [[UInt8]]) async throws {
        guard let bearer, let handle = server.valueHandle(of: MdocGATTProfile.server2Client(mode: .peripheralServer)) else {
            throw PeerError("not connected")
        }
        for chunk in chunks {
            do {
                try await bearer.send(ATTPDU.handleValueNotification(attributeHandle: handle, attributeValue: chunk).bytes)
            } catch {
                // The program under test closed the link, as it must for some faults.
                guard error.code == .linkClosed else { throw error }
                return
            }
        }
    }

    private func requireConnection() throws -> GATTServerConnection {
        guard let connection else { throw PeerError("not connected") }
        return connection
    }
}
