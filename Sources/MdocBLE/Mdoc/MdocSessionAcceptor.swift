#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging

/// The GATT server's wait for its peer (ISO/IEC 18013-5 8.3.3.1.1.4): it advertises the service
/// and serves it to every central that connects, and the first central to write State 0x01 is
/// the session's peer.
///
/// A central is not the peer for having connected: phones' scanners connect and look at the
/// services, and readers that retry their connection drop it and connect again. One that leaves,
/// or breaks the connection sequence, before State 0x01 is dropped while advertising goes on, so
/// the peer can still find the service. Once the session started, advertising stops and every
/// other central is disconnected; later ones find nothing to connect to.
struct MdocSessionAcceptor {
    /// The 18013-5 BLE mode served.
    let mode: MdocBLEMode
    /// The service UUID advertised and served.
    let serviceUUID: UUID
    /// The Ident served in mdoc central client mode.
    let ident: [UInt8]?
    /// The Server Rx MTU announced and how the Server2Client chunks are cut.
    let sizing: MdocLinkSizing
    let logger: Logger

    /// What a task of the wait reports.
    private enum Step: Sendable {
        /// A central connected.
        case connected(any ATTBearer)
        /// Advertising gave up: the time ran out, or it stopped.
        case acceptFailed(BLEError)
        /// A central wrote State 0x01.
        case started(MdocGATTServerTransport)
        /// A central's link ended before it wrote State 0x01, `after` it connected.
        case left(MdocGATTServerTransport, BLEError, after: Duration)
        /// The deadline passed (true), or its wait was cancelled (false).
        case deadline(passed: Bool)
    }

    /// The centrals that connected and did not start a session, for the message when nobody did.
    private struct Departures {
        var count = 0
        var last: (after: Duration, reason: String)?
    }

    /// Advertises over `adapter` until a central starts the session, and returns its link;
    /// advertising has stopped then. Throws `timeout` when no central connected before
    /// `deadline`, `sessionNotStarted` when some did but none started the session, and the
    /// adapter's errors.
    func accept(over adapter: any BLEAdapter, until deadline: LinkDeadline) async throws(BLEError) -> MdocGATTServerTransport {
        let advertisement = try await adapter.advertise(serviceUUID: serviceUUID)
        let result = await withTaskGroup(of: Step.self) { group -> Result<MdocGATTServerTransport, BLEError> in
            func acceptNext() {
                group.addTask {
                    do throws(BLEError) {
                        return .connected(try await advertisement.accept(timeout: deadline.backstop))
                    } catch {
                        return .acceptFailed(error)
                    }
                }
            }
            group.addTask { .deadline(passed: await deadline.passage()) }
            acceptNext()
            var candidates: [ObjectIdentifier: MdocGATTServerTransport] = [:]
            var departures = Departures()
            var outcome: Result<MdocGATTServerTransport, BLEError>?
            while outcome == nil, let step = await group.next() {
                switch step {
                case .connected(let bearer):
                    let candidate = MdocGATTServerTransport(mode: mode, serviceUUID: serviceUUID, ident: ident, bearer: bearer,
                                                            sizing: sizing, logger: logger)
                    candidates[ObjectIdentifier(candidate)] = candidate
                    logger.debug("a central connected; waiting for it to start the session (State 0x01)",
                                 metadata: ["service": "\(serviceUUID)", "centrals": "\(candidates.count)"])
                    let connected = deadline.elapsed
                    group.addTask {
                        do throws(BLEError) {
                            try await candidate.waitForStart()
                            return .started(candidate)
                        } catch {
                            return .left(candidate, error, after: deadline.elapsed - connected)
                        }
                    }
                    acceptNext()
                case .started(let transport):
                    candidates[ObjectIdentifier(transport)] = nil
                    outcome = .success(transport)
                case .left(let candidate, let error, let after):
                    candidates[ObjectIdentifier(candidate)] = nil
                    candidate.close()
                    departures.count += 1
                    departures.last = (after, error.reason)
                    logger.info("a central left before starting the session; still advertising", metadata: [
                        "service": "\(serviceUUID)", "after": "\(Self.seconds(after))", "reason": "\(error.reason)",
                    ])
                case .acceptFailed(let error):
                    outcome = .failure(Self.failure(error, departures: departures, stillConnected: candidates.count))
                case .deadline(passed: true):
                    let error = BLEError(.timeout, "no central started a session on \(serviceUUID) within \(deadline.timeout)")
                    outcome = .failure(Self.failure(error, departures: departures, stillConnected: candidates.count))
                case .deadline(passed: false):
                    break
                }
            }
            // The session started or the wait failed: nobody else is taken, and links still
            // being made or served are ended.
            await advertisement.stop()
            for candidate in candidates.values { candidate.close() }
            group.cancelAll()
            for await step in group {
                switch step {
                case .connected(let bearer): bearer.close()
                case .started(let transport), .left(let transport, _, _): transport.close()
                case .acceptFailed, .deadline: break
                }
            }
            return outcome ?? .failure(BLEError(.linkClosed, "advertising \(serviceUUID) stopped"))
        }
        return try result.get()
    }

    /// The failure when advertising gave up with `error`: as it is when no central came,
    /// `sessionNotStarted` saying what the centrals did when some came.
    private static func failure(_ error: BLEError, departures: Departures, stillConnected: Int) -> BLEError {
        guard error.code == .timeout, departures.count + stillConnected > 0 else { return error }
        var parts: [String] = []
        if let last = departures.last {
            let centrals = departures.count == 1 ? "1 central" : "\(departures.count) centrals"
            parts.append("\(centrals) connected and left without starting the session (the last after \(seconds(last.after)): \(last.reason))")
        }
        if stillConnected > 0 {
            parts.append("\(stillConnected == 1 ? "1 central was" : "\(stillConnected) centrals were") still connected without having written State 0x01")
        }
        return BLEError(.sessionNotStarted, parts.joined(separator: "; "))
    }

    /// `duration` in seconds with one decimal, for messages.
    static func seconds(_ duration: Duration) -> String {
        let tenths = Int((duration / .milliseconds(100)).rounded())
        return "\(tenths / 10).\(tenths % 10) s"
    }
}
