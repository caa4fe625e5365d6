import Foundation
import MdocBLE
import MdocCBOR
import MdocModel
import MdocSession
import MdocTerminal

/// A well-behaved mdoc in this test process, in mdoc central client mode: a real
/// ``HolderSession`` with the demo mDL that shows its engagement at once but connects to the
/// reader only when the test says, so that other centrals can reach the reader's GATT server
/// first (ISO/IEC 18013-5 8.3.3.1.1.4).
final class LateHolder {
    /// The engagement the reader under test is given.
    let uri: String
    private var session: HolderSession
    private let serviceUUID: UUID

    init() throws {
        let credential = try CredentialFiles.load(ProgramRunner.repositoryRoot + "/Certs/demo/mdl.mdoc").credential
        let options = BleOptions.offering(peripheralServerMode: false, centralClientMode: true)
        session = try HolderSession(credentials: [credential], readerTrustAnchors: [], bleOptions: options, now: { Date() })
        guard let uuid = options.centralClientModeUUID else { throw LiveSessionError("no central client mode UUID") }
        serviceUUID = uuid
        uri = session.mdocURI.description
    }

    /// The Ident a reader must serve for this engagement (8.3.3.1.1.4).
    var ident: [UInt8] { session.bleIdent }

    /// The service UUID the reader advertises (BleOptions key 11).
    var centralServiceUUID: UUID { serviceUUID }

    /// Connects to the reader over `adapter`, answers its request with every requested element
    /// and returns how the session ended once the reader ended it.
    func present(over adapter: any BLEAdapter, timeout: Duration) async throws -> SessionOutcome {
        let link = try await MdocBLEConnector.holder(mode: .centralClient, serviceUUID: serviceUUID, ident: session.bleIdent,
                                                     timeout: timeout, over: adapter)
        defer { link.close() }
        while true {
            var action: HolderAction
            switch try await link.receive() {
            case .message(let bytes): action = session.receive(bytes)
            case .ended, .disconnected: action = session.transportEnded()
            }
            if case .askConsent(let request) = action {
                action = session.decide(request.allAvailable)
            }
            switch action {
            case .send(let bytes):
                try await link.send(bytes)
            case .sendAndFinish(let bytes, let outcome):
                try? await link.send(bytes)
                await link.end()
                return outcome
            case .finished(let outcome):
                await link.end()
                return outcome
            case .askConsent:
                throw LiveSessionError("consent was asked twice for one request")
            }
        }
    }
}
