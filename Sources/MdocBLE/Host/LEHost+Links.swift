import Logging

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
        let completion: CheckedContinuation<Result<Void, BLEError>, Never>
    }

    /// Sends `payload` on L2CAP channel `channelID` of link `handle`; returns once every ACL
    /// packet of the frame went to the controller, which waits for its buffers. Throws
    /// `linkClosed` when the link ended first.
    func send(_ payload: [UInt8], channelID: UInt16, on handle: UInt16) async throws(BLEError) {
        try checkRunning()
        guard links[handle] != nil else {
            throw BLEError(.linkClosed, "the LE link 0x\(String(handle, radix: 16)) has ended; \(payload.count) octets were not sent")
        }
        let fragments = L2CAPBasicFrame(channelID: channelID, payload: payload)
            .fragments(handle: handle, maximumDataLength: aclDataLength)
        if channelID == L2CAPChannelID.attributeProtocol {
            statistics.attPDUsSent += 1
            statistics.attOctetsSent += payload.count
        }
        let result = await withCheckedContinuation { (completion: CheckedContinuation<Result<Void, BLEError>, Never>) in
            outgoing.append(OutgoingFrame(handle: handle, fragments: fragments, completion: completion))
            pump()
        }
        try result.get()
    }

    /// Hands queued ACL packets to the transport while the controller has free buffers, frame
    /// by frame, so the packets of one frame are never interleaved with another's.
    func pump() {
        while !outgoing.isEmpty, failure == nil {
            guard flow.take(for: outgoing[0].handle) else { return }
            let fragment = outgoing[0].fragments[outgoing[0].next]
            do {
                try transport.send(.aclData(fragment))
            } catch {
                fail(error)
                return
            }
            statistics.aclPacketsSent += 1
            statistics.aclOctetsSent += HCIACLData.headerLength + fragment.data.count
            outgoing[0].next += 1
            if outgoing[0].next == outgoing[0].fragments.count {
                outgoing.removeFirst().completion.resume(returning: .success(()))
            }
        }
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
                Task { try? await send(answer, channelID: L2CAPChannelID.securityManager, on: handle) }
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
        Task {
            try? await send(answer.bytes, channelID: L2CAPChannelID.leSignaling, on: handle)
            if answer.code == LESignalingCommand.connectionParameterUpdateResponseCode, answer.data.first == 0x00,
               let parameters = command.requestedParameters {
                try? await executeAccepted(.leConnectionUpdate(handle: handle, parameters: parameters))
            }
        }
    }

    /// The peer broke L2CAP or flooded the ATT channel: the bearer fails with `error` and the
    /// link is ended.
    private func linkBroken(_ handle: UInt16, _ error: BLEError) {
        logger.warning("ending an LE link", metadata: ["handle": "\(handle)", "error": "\(error)"])
        links[handle]?.bearer.finish(.failure(error))
        Task { await disconnect(handle) }
    }

    /// Ends link `handle` from this side: waits up to ``drainTimeout`` for its queued data to
    /// leave the controller (so a last notification is not flushed), then Disconnect with
    /// `reason` and waits for Disconnection Complete (Core Vol 4 Part E 7.1.6, 7.7.5).
    func disconnect(_ handle: UInt16, reason: HCIStatus = .remoteUserTerminatedConnection) async {
        // Once per link: a second caller leaves it to the first.
        guard links[handle] != nil, failure == nil, disconnections[handle] == nil else { return }
        let drainDeadline = ContinuousClock.now + Self.drainTimeout
        while links[handle] != nil, ContinuousClock.now < drainDeadline,
              outgoing.contains(where: { $0.handle == handle }) || flow.outstanding[handle] != nil {
            try? await Task.sleep(for: .milliseconds(5))
        }
        guard links[handle] != nil, failure == nil, disconnections[handle] == nil else { return }
        let promise = Promise<HCIStatus>()
        disconnections[handle] = promise
        do {
            try await executeAccepted(.disconnect(handle: handle, reason: reason))
            _ = await promise.value(
                timeout: Self.disconnectTimeout,
                timedOut: { BLEError(.timeout, "no Disconnection Complete within \(LEHost.disconnectTimeout)") },
                cancelled: nil)
        } catch {
            logger.debug("Disconnect failed; the link is treated as ended", metadata: ["handle": "\(handle)", "error": "\(error)"])
        }
        if links[handle] != nil { linkEnded(handle, reason: .connectionTerminatedByLocalHost) }
    }

    /// Link `handle` ended (Disconnection Complete, or given up on): its buffers are free again
    /// (Core Vol 4 Part E 4.3), its queued frames fail, its bearer ends after what it received.
    func linkEnded(_ handle: UInt16, reason: HCIStatus) {
        guard links[handle] != nil else { return }
        logger.debug("LE link ended", metadata: ["handle": "\(handle)", "reason": "\(reason)"])
        flow.disconnected(handle)
        let closed = BLEError(.linkClosed, "the LE link 0x\(String(handle, radix: 16)) ended: \(reason)")
        var kept: [OutgoingFrame] = []
        for frame in outgoing {
            if frame.handle == handle {
                frame.completion.resume(returning: .failure(closed))
            } else {
                kept.append(frame)
            }
        }
        outgoing = kept
        removeLink(handle, end: .success(()))
        disconnections.removeValue(forKey: handle)?.fulfil(.success(reason))
        pump()
        if advertising != nil {
            advertising?.linkEndings += 1
            if let advertising, !advertising.isEnabled {
                Task { await resumeAdvertising(advertising.identifier) }
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
            pendingConnection?.promise.fulfil(.success(complete))
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
            wanted = pendingConnection.map { $0.peer.octets == complete.peerAddress.octets && $0.promise.fulfil(.success(complete)) } ?? false
        case .peripheral:
            wanted = advertising?.connected(bearer) ?? false
            if wanted, let identifier = advertising?.identifier {
                Task { await resumeAdvertising(identifier) }
            }
        }
        if !wanted {
            logger.debug("ending an LE link nobody waits for", metadata: ["handle": "\(complete.handle)"])
            Task { await disconnect(complete.handle) }
        }
    }
}
