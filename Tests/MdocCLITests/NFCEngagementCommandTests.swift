import Foundation
import MdocCBOR
import MdocModel
import MdocNFC
import MdocPCSC
import MdocSession
import MdocTestPeers
import MdocTestSupport
import NIOConcurrencyHelpers
import Testing

/// Engagement by tap between the programs through the real pcscd (ISO/IEC 18013-5 8.2.2.1):
/// `mdoc-holder present --nfc` is a virtual card in the reader of vsmartcard's vpcd, and
/// `mdoc-reader request --engagement nfc` reads its engagement through pcscd, then both go on
/// over BLE (`sim`). Each test has a pcscd of its own, whose socket the programs are given in
/// `PCSCLITE_CSOCK_NAME`.
@Suite struct NFCEngagementCommandTests {
    /// Holder and reader through `daemon`: the holder offers `handover` and `bleMode`; the
    /// reader's standard error once both have ended, and its capture's folder.
    static func session(
        through daemon: VirtualReaderDaemon, handover: String, bleMode: String, in run: IsolatedRun, capture: String,
        reader readerArguments: [String] = []
    ) async throws -> (reader: ProgramRunner.Result, holder: ProgramRunner.Result) {
        let holder = try run.start("mdoc-holder", [
            "present", "--yes", "--no-qr", "--credential", "Certs/demo/mdl.mdoc", "--transport", "sim", "--ble-mode", bleMode,
            "--nfc", daemon.address.description, "--handover", handover, "--timeout", "\(LiveSession.programTimeout)",
        ])
        defer { holder.stop() }
        #expect(await holder.waitForStandardError(containing: "offering the engagement by NFC", timeout: LiveSession.waitTimeout),
                "\(holder.standardError)")
        let reader = try await run.run("mdoc-reader", [
            "request", "--engagement", "nfc:\(VirtualReaderDaemon.readerName)", "--transport", "sim", "--preset", "age-over-18",
            "--trust", "Certs/demo/iaca.pem", "--timeout", "\(LiveSession.programTimeout)", "--save-session", capture,
        ] + readerArguments, extra: ["PCSCLITE_CSOCK_NAME": daemon.socketPath])
        return (reader, await holder.wait(timeout: LiveSession.waitTimeout))
    }

    /// The SessionTranscript a capture in `folder` keeps.
    static func transcript(in folder: String) throws -> SessionTranscript {
        try SessionTranscriptBinding(encoded: Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/session-transcript.cbor"))))
            .transcript
    }

    /// Runs `body` with a pcscd of its own for the programs and a run of their own; both go
    /// when it returns.
    static func withDaemon(_ body: (VirtualReaderDaemon, IsolatedRun) async throws -> Void) async throws {
        let daemon = try await VirtualReaderDaemon(forChildProcesses: true)
        defer { daemon.stop() }
        let run = try IsolatedRun()
        defer { run.remove() }
        try await body(daemon, run)
    }

    @Test(arguments: [("static", "peripheral"), ("static", "both"), ("negotiated", "central"), ("negotiated", "both")])
    func aTapThenBLESessionVerifies(handover: String, bleMode: String) async throws {
        try await Self.withDaemon { daemon, run in
            let capture = run.home + "/capture"
            let (reader, holder) = try await Self.session(through: daemon, handover: handover, bleMode: bleMode, in: run, capture: capture)

            #expect(reader.status == 0, "\(reader.standardError)\n\(daemon.log)")
            #expect(reader.standardOutput.contains("age_over_18"), "\(reader.standardOutput)")
            #expect(reader.standardError.contains("engaged by NFC on \(VirtualReaderDaemon.readerName) (\(handover) handover)"),
                    "\(reader.standardError)")
            #expect(holder.status == 0, "\(holder.standardError)")

            // The SessionTranscript holds the handover as it crossed pcscd: the Handover Select
            // holding the DeviceEngagement, and the Handover Request exactly for negotiated handover.
            let transcript = try Self.transcript(in: capture)
            guard case .nfc(let select, let request) = transcript.handover else {
                Issue.record("the handover is \(transcript.handover), not NFC")
                return
            }
            #expect(try HandoverSelectMessage(bytes: select).deviceEngagement == transcript.deviceEngagementBytes.map { Array($0.bytes) })
            #expect((request != nil) == (handover == "negotiated"))
            if let request {
                #expect(try HandoverRequestMessage(bytes: request).readerEngagement != nil)
            }
            // The capture replays offline to the same verdict.
            let replay = try await run.run("mdoc-reader", ["verify", "--session", capture, "--trust", "Certs/demo/iaca.pem"])
            #expect(replay.status == 0, "\(replay.standardError)")
        }
    }

    @Test func aReaderWithNoCardTappedEndsAtItsBound() async throws {
        try await Self.withDaemon { daemon, run in
            let reader = try await run.run("mdoc-reader", [
                "request", "--engagement", "nfc", "--transport", "sim", "--trust", "Certs/demo/iaca.pem", "--timeout", "1",
            ], extra: ["PCSCLITE_CSOCK_NAME": daemon.socketPath])
            #expect(reader.status == 8, "\(reader.standardError)")
            #expect(reader.standardError.contains("no mdoc was tapped"), "\(reader.standardError)")
        }
    }

    /// The command APDUs pcscd carried and their octets, commands and responses together, from
    /// its `--apdu` log.
    static func apdus(in log: String) -> (count: Int, octets: Int) {
        let lines = log.split(separator: "\n")
        let octets = { (marker: String) in
            lines.compactMap { line in line.range(of: marker).map { line[$0.upperBound...].split(separator: " ").count } }
        }
        let commands = octets("APDU: ")
        return (commands.count, commands.reduce(0, +) + octets("SW: ").reduce(0, +))
    }

    @Test(arguments: [("static", [String]()), ("negotiated", ["--short-apdus"])])
    func aSessionRetrievedOverNFCVerifies(handover: String, apdus: [String]) async throws {
        try await Self.withDaemon { daemon, run in
            let capture = run.home + "/capture"
            let (reader, holder) = try await Self.session(
                through: daemon, handover: handover, bleMode: "both", in: run, capture: capture, reader: ["--retrieval", "nfc"] + apdus)

            #expect(reader.status == 0, "\(reader.standardError)\n\(daemon.log)")
            #expect(reader.standardOutput.contains("age_over_18"), "\(reader.standardOutput)")
            #expect(reader.standardError.contains(apdus.isEmpty ? "ENVELOPEs of up to 65526 bytes" : "ENVELOPEs of up to 255 bytes"),
                    "\(reader.standardError)")
            #expect(holder.status == 0, "\(holder.standardError)")
            #expect(holder.standardError.contains("reader connected over NFC"), "\(holder.standardError)")
            let replay = try await run.run("mdoc-reader", ["verify", "--session", capture, "--trust", "Certs/demo/iaca.pem"])
            #expect(replay.status == 0, "\(replay.standardError)")
            // The capture keeps every APDU pcscd carried, and `mdoc inspect` explains them.
            let trace = try APDUTrace(text: String(decoding: try Data(contentsOf: URL(fileURLWithPath: capture + "/apdus.txt")), as: UTF8.self))
            #expect(trace.exchanges.count == Self.apdus(in: daemon.log).count)
            let inspected = try await run.run("mdoc", ["inspect", "--explain", capture])
            #expect(inspected.status == 0, "\(inspected.standardError)")
            #expect(inspected.standardOutput.contains("APDUs (apdus.txt): \(trace.exchanges.count) commands"), "\(inspected.standardOutput)")
            #expect(inspected.standardOutput.contains("ENVELOPE"), "\(inspected.standardOutput)")
            // The holder's NFC carrier record in the transcript's Handover Select, read.
            #expect(inspected.standardOutput.contains("Maximum command data length: 65526 bytes"), "\(inspected.standardOutput)")
            // A trace changed by hand is named when the capture is read.
            try "> 00A4\n".write(toFile: capture + "/apdus.txt", atomically: true, encoding: .utf8)
            let tampered = try await run.run("mdoc-reader", ["verify", "--session", capture, "--trust", "Certs/demo/iaca.pem"])
            #expect(tampered.status != 0 && tampered.standardError.contains("apdus.txt"), "\(tampered.standardError)")
            // What crossed against the least the messages need: the handover messages and the
            // session's messages as the capture keeps them.
            let (count, octets) = Self.apdus(in: daemon.log)
            let messages = try FileManager.default.contentsOfDirectory(atPath: capture)
                .filter { $0.contains("-sent-session-") || $0.contains("-received-session-") }
                .map { try Data(contentsOf: URL(fileURLWithPath: capture + "/" + $0)).count }
            let transcript = try Self.transcript(in: capture)
            guard case .nfc(let select, let request) = transcript.handover else {
                Issue.record("the handover is \(transcript.handover), not NFC")
                return
            }
            let minimum = messages.reduce(0, +) + select.count + (request?.count ?? 0)
            #expect(octets >= minimum)
            print("NFC engagement (\(handover)) and retrieval (\(apdus.isEmpty ? "extended" : "short") APDUs) through pcscd: \(count) command APDUs, \(octets) octets with their responses; the messages themselves are \(minimum) octets")
        }
    }

    /// A card of this process in `daemon`'s reader, answering with `handler`, until cancelled.
    static func card(_ handler: some VirtualCardHandler, in daemon: VirtualReaderDaemon) -> Task<Void, any Error> {
        Task { try await VirtualCard.run(daemon.address, atr: NFCVirtualCardHandler.answerToReset, handler: handler) }
    }

    /// `mdoc-reader request --engagement nfc` through `daemon` with `--timeout seconds`.
    static func tap(through daemon: VirtualReaderDaemon, seconds: Int, in run: IsolatedRun) async throws -> ProgramRunner.Result {
        try await run.run("mdoc-reader", [
            "request", "--engagement", "nfc", "--transport", "sim", "--trust", "Certs/demo/iaca.pem", "--timeout", "\(seconds)",
        ], extra: ["PCSCLITE_CSOCK_NAME": daemon.socketPath])
    }

    /// A phone whose NDEF application stays closed: every command answered `6A82`.
    /// It says when pcscd powered it up, which pcscd does once the card is in its reader.
    struct LockedPhone: VirtualCardHandler {
        let commands = NIOLockedValueBox(0)
        let poweredUp = AsyncStream.makeStream(of: Void.self)

        func respond(to command: [UInt8]) async -> [UInt8] {
            commands.withLockedValue { $0 += 1 }
            return [0x6A, 0x82]
        }

        func powerChanged(on: Bool) async {
            if on { poweredUp.continuation.yield() }
        }
    }

    @Test func aLockedPhoneIsPolledUntilTheBoundThenNamed() async throws {
        try await Self.withDaemon { daemon, run in
            let phone = LockedPhone()
            let card = Self.card(phone, in: daemon)
            defer { card.cancel() }
            // The card is in the reader before the reader's 2 s start: they bound the polling of
            // the locked phone alone.
            // A card that cannot reach vpcd ends the wait too, and the reader then finds none.
            Task {
                _ = await card.result
                phone.poweredUp.continuation.finish()
            }
            var poweredUp = phone.poweredUp.stream.makeAsyncIterator()
            _ = await poweredUp.next()
            let reader = try await Self.tap(through: daemon, seconds: 2, in: run)
            #expect(reader.status == 8, "\(reader.standardError)")
            #expect(reader.standardError.contains("stayed unavailable (6A82)"), "\(reader.standardError)")
            // Polled, not given up at the first answer.
            #expect(phone.commands.withLockedValue { $0 } > 1)
        }
    }

    /// A phone taken away after answering its first command: the card leaves pcscd's reader
    /// while the reader waits for the second answer.
    struct PhoneTakenAway: VirtualCardHandler {
        let run = NIOLockedValueBox<Task<Void, any Error>?>(nil)
        let commands = NIOLockedValueBox(0)

        func respond(to command: [UInt8]) async -> [UInt8] {
            if commands.withLockedValue({ $0 += 1; return $0 }) > 1 {
                run.withLockedValue { $0?.cancel() }
            }
            return [0x90, 0x00]
        }
    }

    @Test func aPhoneTakenAwayDuringTheEngagementEndsTheReader() async throws {
        try await Self.withDaemon { daemon, run in
            let phone = PhoneTakenAway()
            let card = Self.card(phone, in: daemon)
            phone.run.withLockedValue { $0 = card }
            defer { card.cancel() }
            let reader = try await Self.tap(through: daemon, seconds: Int(LiveSession.programTimeout), in: run)
            #expect(reader.status == 8, "\(reader.standardError)")
            #expect(reader.standardError.contains("NFC engagement on Virtual PCD 00 00 failed"), "\(reader.standardError)")
        }
    }

    @Test func aHandoverSelectWithoutADeviceEngagementIsMalformed() async throws {
        try await Self.withDaemon { daemon, run in
            // A well-formed Handover Select whose DeviceEngagement record holds no CBOR map.
            let select = HandoverSelectMessage(deviceEngagement: [0x1F], carriers: [])
            let card = Self.card(
                NFCVirtualCardHandler(card: NFCCard(ndefApplication: NDEFTagApplication(staticHandover: select), dataTransferApplication: nil)),
                in: daemon)
            defer { card.cancel() }
            let reader = try await Self.tap(through: daemon, seconds: Int(LiveSession.programTimeout), in: run)
            #expect(reader.status == 2, "\(reader.standardError)")
            #expect(reader.standardError.contains("DeviceEngagement record holds no DeviceEngagement"), "\(reader.standardError)")
        }
    }

    @Test func aHolderGoneDuringRetrievalOverNFCEndsTheReader() async throws {
        try await Self.withDaemon { daemon, run in
            // The holder asks (no --yes): the reader's request waits in its ENVELOPE meanwhile.
            let holder = try run.start("mdoc-holder", [
                "present", "--no-qr", "--credential", "Certs/demo/mdl.mdoc", "--transport", "sim", "--nfc", daemon.address.description,
                "--timeout", "\(LiveSession.programTimeout)",
            ])
            defer { holder.stop() }
            #expect(await holder.waitForStandardError(containing: "offering the engagement by NFC", timeout: LiveSession.waitTimeout))
            let reader = try run.start("mdoc-reader", [
                "request", "--engagement", "nfc", "--retrieval", "nfc", "--transport", "sim", "--preset", "age-over-18",
                "--trust", "Certs/demo/iaca.pem", "--timeout", "\(LiveSession.programTimeout)",
            ], extra: ["PCSCLITE_CSOCK_NAME": daemon.socketPath])
            defer { reader.stop() }
            #expect(await holder.line(startingWith: "Release [a]ll", number: 1, timeout: LiveSession.waitTimeout) != nil,
                    "\(holder.standardOutput)\n\(holder.standardError)")
            // The phone leaves the reader: its card's connection to vpcd ends with it.
            holder.signal(SIGKILL)
            let read = await reader.wait(timeout: LiveSession.waitTimeout)
            #expect(read.status == 8, "\(read.standardError)")
            #expect(read.standardError.contains("the card is gone"), "\(read.standardError)")
        }
    }

    @Test func aCardWithoutTheMdocApplicationIsNamed() async throws {
        try await Self.withDaemon { daemon, run in
            // A Handover Select offering NFC retrieval on a card that has no mdoc application.
            let session = try HolderSession(credentials: [try DemoMaterial.mDL()], bleOptions: .offering(peripheralServerMode: true, centralClientMode: false))
            let select = HandoverSelectMessage(
                deviceEngagement: Array(session.deviceEngagement.bytes),
                carriers: [.nfc(NFCCarrier(maximumCommandDataLength: 255, maximumResponseDataLength: 256))])
            let card = Self.card(
                NFCVirtualCardHandler(card: NFCCard(ndefApplication: NDEFTagApplication(staticHandover: select), dataTransferApplication: nil)),
                in: daemon)
            defer { card.cancel() }
            let reader = try await run.run("mdoc-reader", [
                "request", "--engagement", "nfc", "--retrieval", "nfc", "--transport", "sim", "--trust", "Certs/demo/iaca.pem",
                "--timeout", "\(LiveSession.programTimeout)",
            ], extra: ["PCSCLITE_CSOCK_NAME": daemon.socketPath])
            #expect(reader.status == 8, "\(reader.standardError)")
            #expect(reader.standardError.contains("the mdoc application did not answer over NFC"), "\(reader.standardError)")
        }
    }

    @Test func aReaderWithoutPcscdSaysSo() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let reader = try await run.run("mdoc-reader", [
            "request", "--engagement", "nfc", "--transport", "sim", "--trust", "Certs/demo/iaca.pem",
        ], extra: ["PCSCLITE_CSOCK_NAME": run.home + "/no-pcscd.comm"])
        #expect(reader.status == 8, "\(reader.standardError)")
        #expect(reader.standardError.contains("start pcscd"), "\(reader.standardError)")
    }

    @Test func aHolderWhoseVirtualCardFindsNoVpcdSaysSo() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        // Nothing listens on port 1 (tcpmux) here.
        let holder = try await run.run("mdoc-holder", [
            "present", "--yes", "--no-qr", "--credential", "Certs/demo/mdl.mdoc", "--transport", "sim",
            "--nfc", "vpcd:127.0.0.1:1", "--timeout", "\(LiveSession.programTimeout)",
        ])
        #expect(holder.status == 8, "\(holder.standardError)")
        #expect(holder.standardError.contains("the virtual card failed"), "\(holder.standardError)")
    }

    @Test(arguments: ["nfc:", "qr", "nfcx"])
    func aMalformedEngagementOptionIsAUsageError(value: String) async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let reader = try await run.run("mdoc-reader", ["request", "--engagement", value, "--trust", "Certs/demo/iaca.pem"])
        #expect(reader.status == 64, "\(reader.standardError)")
    }
}
