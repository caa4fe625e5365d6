import Logging
import MdocBLE
import NIOCore

/// The links of an ``LEHost``: ACL data out with flow control, ACL data in through L2CAP
/// reassembly to the fixed channels, and the end of links (Bluetooth Core Vol 4 Part E 4.1.1,
/// 5.4.2; Core Vol 3 Part A 3).
extension LEHost {
    /// One LE link.
    struct LinkState {
        let role: LEConnectionComplete.Role
        let peer: BluetoothAddress
        var reassembler = L2CAPReassembler()
        /// The link's ATT channel, handed to a GATT server or client.
        let bearer: LEATTBearer
    }

    /// An L2CAP frame waiting for controller buffers, cut into its ACL packets.
    struct OutgoingFrame {
        let handle: UInt16
        let fragments: [HCIACLData]
        var next = 0
        /// Succeeds once every ACL packet of the frame went to the controller.
        let promise: EventLoopPromise<Void>
    }

    /// Sends `payloads` on L2CAP channel `channelID` of link `handle`, one frame each, in order
    /// and with no other frame of this link between them; completes once every ACL packet of
    /// the last frame went to the controller, which waits for its buffers. Fails with
    /// `linkClosed` when the link ended first.
    func send(_ payloads: [[UInt8]], channelID: UInt16, on handle: UInt16) -> EventLoopFuture<Void> {
        if let failure { return eventLoop.makeFailedFuture(failure) }
        guard links[handle] != nil else {
            let octets = payloads.reduce(0) { $0 + $1.count }
            return eventLoop.makeFailedFuture(BLEError(
                .linkClosed, "the LE link 0x\(String(handle, radix: 16)) has ended; \(octets) octets were not sent"))
        }
        var last = eventLoop.makeSucceededVoidFuture()
        for payload in payloads {
            let fragments = L2CAPBasicFrame(channelID: channelID, payload: payload)
                .fragments(handle: handle, maximumDataLength: aclDataLength)
            if channelID == L2CAPChannelID.attributeProtocol {
                statistics.attPDUsSent += 1
                statistics.attOctetsSent += payload.count
            }
            let promise = eventLoop.makePromise(of: Void.self)
            outgoing.append(OutgoingFrame(handle: handle, fragments: fragments, promise: promise))
            last = promise.futureResult
        }
        pump()
        return last
    }

    /// Hands queued ACL packets to the transport while the controller has free buffers, frame
    /// by frame, so the packets of one frame are never interleaved with another's.
    func pump() {
        var wrote = false
        while let first = outgoing.first, failure == nil, flow.take(for: first.handle) {
            let fragment = first.fragments[first.next]
            transport.write(.aclData(fragment))
            wrote = true
            statistics.aclPacketsSent += 1
            statistics.aclOctetsSent += HCIACLData.headerLength + fragment.data.count
            outgoing[outgoing.startIndex].next += 1
            if outgoing[outgoing.startIndex].next == first.fragments.count {
                outgoing.removeFirst().promise.succeed()
            }
        }
        if wrote { transport.flush() }
        checkDrained()
    }

    /// Takes one ACL packet from the controller.
    func receive(_ data: HCIACLData) {
        statistics.aclPacketsReceived += 1
        statistics.aclOctetsReceived += HCIACLData.headerLength + data.data.count
        guard links[data.handle] != nil else {
            logger.debug("ignoring ACL data for no link", metadata: ["handle": "\(data.handle)"])
            return
        }
        let frame: L2CAPBasicFrame?
        do {
            frame = try links[data.handle]!.reassembler.append(data)
        } catch {
            linkBroken(data.handle, error)
            return
        }
        if let frame { dispatch(frame, on: data.handle) }
    }

    /// Delivers a reassembled frame to its fixed channel (Core Vol 3 Part A 2.1).
    private func dispatch(_ frame: L2CAPBasicFrame, on handle: UInt16) {
        guard let link = links[handle] else { return }
        switch frame.channelID {
        case L2CAPChannelID.attributeProtocol:
            statistics.attPDUsReceived += 1
            statistics.attOctetsReceived += frame.payload.count
            if !link.bearer.deliver(frame.payload) {
                linkBroken(handle, BLEError(.queueOverflow,
                                            "more than \(LEATTBearer.receiveQueueLimit) ATT PDUs arrived on link 0x\(String(handle, radix: 16)) before they were taken"))
            }
        case L2CAPChannelID.leSignaling:
            signal(frame.payload, on: handle, role: link.role)
        case L2CAPChannelID.securityManager:
            if let answer = SecurityManagerCommand.answer(to: frame.payload) {
                logger.debug("refusing pairing: 18013-5 encrypts the session itself", metadata: ["handle": "\(handle)"])
                _ = send([answer], channelID: L2CAPChannelID.securityManager, on: handle)
            }
        default:
            logger.debug("ignoring an L2CAP frame on an unused channel", metadata: [
                "handle": "\(handle)", "channel": "0x\(String(frame.channelID, radix: 16))",
            ])
        }
    }

    /// Answers an LE signalling command (Core Vol 3 Part A 4): as central, a peripheral's
    /// connection parameter request is accepted when valid and applied with LE Connection
    /// Update; other requests are refused or rejected.
    private func signal(_ bytes: [UInt8], on handle: UInt16, role: LEConnectionComplete.Role) {
        guard let command = try? LESignalingCommand(bytes: bytes) else {
            logger.debug("ignoring a malformed LE signalling frame", metadata: ["handle": "\(handle)"])
            return
        }
        guard let answer = command.answer(as: role) else { return }
        let answered = send([answer.bytes], channelID: L2CAPChannelID.leSignaling, on: handle)
        if answer.code == LESignalingCommand.connectionParameterUpdateResponseCode, answer.data.first == 0x00,
           let parameters = command.requestedParameters {
            after(answered) { host, result in
                guard case .success = result else { return }
                _ = host.issue(.leConnectionUpdate(handle: handle, parameters: parameters))
            }
        }
    }

    /// The peer broke L2CAP or flooded the ATT channel: the bearer fails with `error` and the
    /// link is ended.
    private func linkBroken(_ handle: UInt16, _ error: BLEError) {
        logger.warning("ending an LE link", metadata: ["handle": "\(handle)", "error": "\(error)"])
        links[handle]?.bearer.finish(.failure(error))
        disconnect(handle)
    }

    /// Ends link `handle` from this side: waits up to ``drainTimeout`` for its queued data to
    /// leave the controller (so a last notification is not flushed), then Disconnect with
    /// `reason` and waits up to ``disconnectTimeout`` for Disconnection Complete (Core Vol 4
    /// Part E 7.1.6, 7.7.5); a link that did not end by then is treated as ended. A second call
    /// for the same link shares the first one's end.
    @discardableResult
    func disconnect(_ handle: UInt16, reason: HCIStatus = .remoteUserTerminatedConnection) -> EventLoopFuture<Void> {
        if let ending = disconnecting[handle] { return ending.futureResult }
        guard links[handle] != nil, failure == nil else { return eventLoop.makeSucceededVoidFuture() }
        let ending = eventLoop.makePromise(of: Void.self)
        disconnecting[handle] = ending
        after(drained(handle, within: Self.drainTimeout)) { host, _ in
            host.requestDisconnection(handle, reason: reason)
        }
        return ending.futureResult
    }

    /// Disconnect, after the drain; the end of ``disconnect(_:reason:)``.
    private func requestDisconnection(_ handle: UInt16, reason: HCIStatus) {
        guard links[handle] != nil, failure == nil else { return disconnectionEnded(handle) }
        let complete = eventLoop.makePromise(of: HCIStatus.self)
        disconnectionComplete[handle] = complete
        after(issue(.disconnect(handle: handle, reason: reason))) { host, outcome in
            guard case .success(.status(.success)) = outcome else {
                host.logger.debug("Disconnect failed; the link is treated as ended", metadata: ["handle": "\(handle)"])
                complete.fail(BLEError(.controllerError, "Disconnect was refused"))
                return
            }
            let timer = host.eventLoop.scheduleTask(in: TimeAmount(Self.disconnectTimeout)) {
                complete.fail(BLEError(.timeout, "no Disconnection Complete within \(LEHost.disconnectTimeout)"))
            }
            complete.futureResult.whenComplete { _ in timer.cancel() }
        }
        after(complete.futureResult) { host, _ in
            if host.disconnectionComplete[handle]?.futureResult === complete.futureResult {
                host.disconnectionComplete[handle] = nil
            }
            host.disconnectionEnded(handle)
        }
    }

    /// The disconnection from this side is over: a link the controller did not report ended is
    /// treated as ended.
    private func disconnectionEnded(_ handle: UInt16) {
        if links[handle] != nil { linkEnded(handle, reason: .connectionTerminatedByLocalHost) }
        disconnecting.removeValue(forKey: handle)?.succeed()
    }

    /// Succeeds once link `handle` has no data queued or in the controller's buffers, or after
    /// `timeout`.
    private func drained(_ handle: UInt16, within timeout: Duration) -> EventLoopFuture<Void> {
        guard !isDrained(handle) else { return eventLoop.makeSucceededVoidFuture() }
        let promise = drainWaiters[handle] ?? eventLoop.makePromise(of: Void.self)
        drainWaiters[handle] = promise
        let timer = eventLoop.scheduleTask(in: TimeAmount(timeout)) { promise.succeed() }
        promise.futureResult.whenComplete { _ in timer.cancel() }
        return promise.futureResult
    }

    private func isDrained(_ handle: UInt16) -> Bool {
        links[handle] == nil || (!outgoing.contains { $0.handle == handle } && flow.outstanding[handle] == nil)
    }

    /// Lets the disconnections waiting for links that have drained go on.
    func checkDrained() {
        for (handle, promise) in drainWaiters where isDrained(handle) {
            drainWaiters[handle] = nil
            promise.succeed()
        }
    }

    /// Link `handle` ended (Disconnection Complete, or given up on): its buffers are free again
    /// (Core Vol 4 Part E 4.3), its queued frames fail, its bearer ends after what it received.
    func linkEnded(_ handle: UInt16, reason: HCIStatus) {
        guard links[handle] != nil else { return }
        logger.debug("LE link ended", metadata: ["handle": "\(handle)", "reason": "\(reason)"])
        flow.disconnected(handle)
        let closed = BLEError(.linkClosed, "the LE link 0x\(String(handle, radix: 16)) ended: \(reason)")
        var kept = CircularBuffer<OutgoingFrame>()
        while let frame = outgoing.popFirst() {
            if frame.handle == handle {
                frame.promise.fail(closed)
            } else {
                kept.append(frame)
            }
        }
        outgoing = kept
        removeLink(handle, end: .success(()))
        disconnectionComplete.removeValue(forKey: handle)?.succeed(reason)
        pump()
        if advertising != nil {
            advertising?.linkEndings += 1
            if let advertising, !advertising.isEnabled {
                resumeAdvertising(advertising.identifier)
            }
        }
    }

    /// Forgets link `handle`; its bearer ends with `end` after the PDUs it holds.
    func removeLink(_ handle: UInt16, end: Result<Void, BLEError>) {
        links.removeValue(forKey: handle)?.bearer.finish(end)
    }

    /// A connection was made or failed (Core Vol 4 Part E 7.7.65.1): as central it answers
    /// the pending LE Create Connection; as peripheral it is the advertisement's; any other is
    /// unwanted and ended.
    func connectionCompleted(_ complete: LEConnectionComplete) {
        guard complete.status == .success else {
            if let pending = pendingConnection {
                pendingConnection = nil
                pending.promise.succeed(complete)
            }
            return
        }
        let bearer = LEATTBearer(host: self, handle: complete.handle, peer: complete.peerAddress)
        links[complete.handle] = LinkState(role: complete.role, peer: complete.peerAddress, bearer: bearer)
        statistics.connections += 1
        logger.debug("LE link made", metadata: [
            "handle": "\(complete.handle)", "role": "\(complete.role)", "peer": "\(complete.peerAddress)",
            "interval": "\(Double(complete.connectionInterval) * 1.25) ms",
        ])
        let wanted: Bool
        switch complete.role {
        case .central:
            if let pending = pendingConnection, pending.peer.octets == complete.peerAddress.octets {
                pendingConnection = nil
                pending.promise.succeed(complete)
                wanted = true
            } else {
                wanted = false
            }
        case .peripheral:
            wanted = advertising?.connected(bearer) ?? false
            if wanted, let identifier = advertising?.identifier {
                resumeAdvertising(identifier)
            }
        }
        if !wanted {
            logger.debug("ending an LE link nobody waits for", metadata: ["handle": "\(complete.handle)"])
            disconnect(complete.handle)
        }
    }
}
