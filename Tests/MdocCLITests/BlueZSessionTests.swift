import Foundation
import MdocTestSupport
import Testing

/// The `bluez` transport through real D-Bus calls: `mdoc-holder` and `mdoc-reader` talk to a
/// stand-in bluetoothd on a private dbus-daemon bus (Tests/Interop/bluez), which serves their
/// GATT applications and advertisements over the `sim` bearer and connects their discoveries to
/// sim advertisers, so a program on `bluez` meets one on `sim` (docs/architecture.md section 6).
@Suite("mdoc-holder and mdoc-reader through bluetoothd's D-Bus API", .timeLimit(.minutes(4)))
struct BlueZSessionTests {
    static let programTimeout = "60"

    /// A stand-in bluetoothd and the environment of programs that use it: its bus as the
    /// system bus, and a sim namespace of the test's own, which the stand-in bridges into.
    struct Bluetoothd {
        let standIn: StandInBluetoothd
        let environment: [String: String]

        /// A stand-in with `options`, bridging into `namespace` (one of the test's own when nil).
        init(_ options: [String] = [], namespace: String? = nil) throws {
            let namespace = namespace ?? "bluez-\(UUID().uuidString)/"
            standIn = try StandInBluetoothd(options + ["--sim-namespace", namespace])
            environment = standIn.environment.merging(["MDOC_SIM_NAMESPACE": namespace]) { _, new in new }
        }

        /// Stops the stand-in; its report's lines.
        func stop() -> [Substring] {
            standIn.stop().split(separator: "\n")
        }
    }

    /// `mdoc-holder present` with the demo mDL, waiting for a reader, and its engagement.
    /// `consent`: `--yes`, else the holder asks on its input.
    static func holder(_ arguments: [String], environment: [String: String], consent: Bool = true) async throws -> (BackgroundProgram, String) {
        let holder = try BackgroundProgram("mdoc-holder", [
            "present", "--credential", "Certs/demo/mdl.mdoc", "--no-qr", "--log-level", "debug",
        ] + (consent ? ["--yes"] : []) + arguments, environment: environment)
        guard let uri = await holder.firstLine(startingWith: "mdoc:", timeout: 60) else {
            throw LiveSessionError("mdoc-holder printed no mdoc: URI: \(await holder.terminate().standardError)")
        }
        return (holder, uri)
    }

    @Test("a session verifies with one side on bluez and the other on sim, both ways, in both BLE modes",
          arguments: [("bluez", "sim", "peripheral"), ("sim", "bluez", "peripheral"), ("bluez", "sim", "central"), ("sim", "bluez", "central")])
    func session(holderTransport: String, readerTransport: String, mode: String) async throws {
        let bluetoothd = try Bluetoothd()
        let folder = try LiveSession.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (holder, uri) = try await Self.holder(["--transport", holderTransport, "--ble-mode", mode, "--timeout", Self.programTimeout],
                                            environment: bluetoothd.environment)
        let reader = try await ProgramRunner.run("mdoc-reader", [
            "request", uri, "--preset", "full", "--json", "--timeout", Self.programTimeout, "--transport", readerTransport,
            "--log-level", "debug", "--save-session", folder + "/capture",
        ] + HCISessionTests.trust + HCISessionTests.readerAuthentication, timeout: 120, environment: bluetoothd.environment)
        let holderResult = await holder.wait(timeout: 60)
        let report = bluetoothd.stop()

        #expect(reader.status == 0, "\(reader.standardError)")
        #expect(holderResult.status == 0, "\(holderResult.standardError)")
        #expect(try ReaderJSON(reader.standardOutput).outcome == "verified")
        let bluezSide = holderTransport == "bluez" ? holderResult.standardError : reader.standardError
        #expect(bluezSide.contains("ATT MTU reported by bluetoothd"), "\(bluezSide)")
        // The GATT server is the holder in peripheral server mode and the reader in central
        // client mode: when it is on bluez, its application was registered, then unregistered.
        let serverOnBlueZ = (mode == "peripheral") == (holderTransport == "bluez")
        #expect(report.contains { $0.hasPrefix("registered application ") } == serverOnBlueZ, "\(report)")
        #expect(report.contains { $0.hasPrefix("unregistered application ") } == serverOnBlueZ, "\(report)")
        #expect(report.last == "registrations 0", "\(report)")
        if mode == "central" {
            #expect(holderResult.standardError.contains("Ident read from the reader"))
            #expect(holderResult.standardError.contains("match=true"))
        }
        // The captured session replays offline to the same report.
        let replay = try await ProgramRunner.run("mdoc-reader", ["verify", "--session", folder + "/capture", "--json"] + HCISessionTests.trust)
        #expect(replay.status == reader.status, "\(replay.standardError)")
        #expect(replay.standardOutput == reader.standardOutput)
        let index = try SessionCaptureTests.index(folder + "/capture")
        #expect(index["transport"] as? String == readerTransport)
        #expect(index["bleMode"] as? String == mode)
    }

    @Test("mDL_BLE_WrongIdent through bluetoothd: a holder that only reads the runner's Ident and leaves is one that came")
    func wrongIdentCase() async throws {
        let bluetoothd = try Bluetoothd()
        // The runner's bound, which the case lasts; the holder, which starts looking for the
        // runner before the runner has started, waits longer.
        let bound = "\(10 * TimeoutScale.factor)"
        let (holder, uri) = try await Self.holder(["--transport", "sim", "--ble-mode", "central", "--timeout", Self.programTimeout],
                                                  environment: bluetoothd.environment)
        let runner = try BackgroundProgram("mdoc-reader", [
            "test-holder", "--transport", "bluez", "--case", "mDL_BLE_WrongIdent", "--timeout", bound, "--log-level", "debug",
        ] + HCISessionTests.trust, environment: bluetoothd.environment)
        runner.send(uri + "\n")
        runner.closeInput()
        let result = await runner.wait(timeout: 120)
        let holderResult = await holder.wait(timeout: 60)
        let report = bluetoothd.stop()

        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardOutput.contains("PASSED  mDL_BLE_WrongIdent (8.3.3.1.1.4)\n"), "\(result.standardOutput)")
        #expect(result.standardError.contains("the client read a characteristic"), "\(result.standardError)")
        #expect(holderResult.standardError.contains("Ident mismatch"), "\(holderResult.standardError)")
        #expect(report.last == "registrations 0", "\(report)")
    }

    @Test("the termination cases through bluetoothd: State 0x02 or status 20 alone, then the holder closes the channel",
          arguments: ["peripheral", "central"])
    func terminationCases(mode: String) async throws {
        let bluetoothd = try Bluetoothd()
        for name in ["mDL_Termination_ReaderStatusOnly", "mDL_Termination_ReaderStateOnly"] {
            let (holder, uri) = try await Self.holder(["--transport", "sim", "--ble-mode", mode, "--timeout", Self.programTimeout],
                                                      environment: bluetoothd.environment)
            let runner = try BackgroundProgram("mdoc-reader", [
                "test-holder", "--transport", "bluez", "--ble-mode", mode, "--case", name, "--timeout", Self.programTimeout,
                "--log-level", "debug",
            ] + HCISessionTests.trust, environment: bluetoothd.environment)
            runner.send(uri + "\n")
            runner.closeInput()
            let result = await runner.wait(timeout: 120)
            let holderResult = await holder.wait(timeout: 60)
            #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
            #expect(result.standardOutput.contains("PASSED  \(name) ("), "\(result.standardOutput)")
            #expect(holderResult.status == 0, "\(holderResult.standardError)")
            // State 0x02 went through bluetoothd, written or notified, with the link kept.
            #expect(result.standardError.contains("0x02 (end) through bluetoothd, the link kept") == name.hasSuffix("StateOnly"),
                    "\(result.standardError)")
        }
        let report = bluetoothd.stop()
        #expect(report.last == "registrations 0", "\(report)")
    }

    @Test("after a session the holder waits for its reader to leave the link, and disconnects one that keeps it")
    func readerLinkReleased() async throws {
        // A reader that disconnects once the session ended: the holder disconnects nothing.
        let bluetoothd = try Bluetoothd()
        let (holder, uri) = try await Self.holder(["--transport", "bluez", "--ble-mode", "peripheral", "--timeout", Self.programTimeout],
                                                  environment: bluetoothd.environment)
        let reader = try await ProgramRunner.run("mdoc-reader", [
            "request", uri, "--preset", "age-over-18", "--timeout", Self.programTimeout, "--transport", "sim",
        ] + HCISessionTests.trust, timeout: 120, environment: bluetoothd.environment)
        let holderResult = await holder.wait(timeout: 60)
        let report = bluetoothd.stop()
        #expect(reader.status == 0, "\(reader.standardError)")
        #expect(holderResult.status == 0, "\(holderResult.standardError)")
        #expect(!holderResult.standardError.contains("kept its link"), "\(holderResult.standardError)")
        #expect(!report.contains { $0.hasPrefix("disconnected client ") }, "\(report)")

        // A reader killed while the holder asks for consent, itself on bluez through another
        // bluetoothd: that one stops the dead reader's notifications, which ends the session,
        // but keeps its link up, until the holder disconnects it once the wait ran out.
        let namespace = "bluez-\(UUID().uuidString)/"
        let holderSide = try Bluetoothd(namespace: namespace)
        let readerSide = try Bluetoothd(namespace: namespace)
        let (asking, askingURI) = try await Self.holder(["--transport", "bluez", "--ble-mode", "peripheral", "--timeout", "600"],
                                                        environment: holderSide.environment, consent: false)
        let killed = try BackgroundProgram("mdoc-reader", [
            "request", askingURI, "--preset", "age-over-18", "--timeout", "600", "--transport", "bluez", "--ble-mode", "peripheral",
        ] + HCISessionTests.trust, environment: readerSide.environment)
        #expect(await asking.waitForOutput(containing: "Release [a]ll", timeout: 60), "\(asking.standardError)")
        killed.signal(SIGKILL)
        _ = await killed.wait(timeout: 30)
        // Far sooner than the holder's 600 s: the stopped notifications end its session.
        let askingResult = await asking.wait(timeout: 60)
        let holderReport = holderSide.stop()
        _ = readerSide.stop()
        #expect(askingResult.status == 8, "\(askingResult.standardError)")
        #expect(askingResult.standardError.contains("kept its link after the session: disconnecting it"), "\(askingResult.standardError)")
        #expect(holderReport.filter { $0.hasPrefix("disconnected client ") }.count == 1, "\(holderReport)")
        #expect(holderReport.last == "registrations 0", "\(holderReport)")
    }

    @Test("a reader finds a holder bluetoothd has met before, whose UUIDs still list the earlier session's service")
    func knownDevice() async throws {
        let bluetoothd = try Bluetoothd()
        var readerOutputs: [String] = []
        for _ in 0..<2 {
            let (holder, uri) = try await Self.holder(["--transport", "sim", "--ble-mode", "peripheral", "--timeout", Self.programTimeout],
                                                environment: bluetoothd.environment)
            let reader = try await ProgramRunner.run("mdoc-reader", [
                "request", uri, "--preset", "age-over-18", "--timeout", Self.programTimeout, "--transport", "bluez",
                "--log-level", "debug",
            ] + HCISessionTests.trust, timeout: 120, environment: bluetoothd.environment)
            let holderResult = await holder.wait(timeout: 60)
            #expect(reader.status == 0, "\(reader.standardError)")
            #expect(holderResult.status == 0, "\(holderResult.standardError)")
            readerOutputs.append(reader.standardError)
        }
        let report = bluetoothd.stop()

        // The first time the device advertises the service; the second time bluetoothd lists the
        // services resolved the first time, and only connecting shows the new one.
        #expect(readerOutputs[0].contains("advertises=the service"), "\(readerOutputs[0])")
        #expect(readerOutputs[1].contains("advertises=unknown: checking its services"), "\(readerOutputs[1])")
        #expect(report.last == "registrations 0", "\(report)")
    }

    @Test("Ctrl-C and SIGTERM unregister the application and the advertisement before the program ends",
          arguments: [(SIGINT, "peripheral"), (SIGTERM, "both")])
    func signalled(signal: Int32, mode: String) async throws {
        let bluetoothd = try Bluetoothd()
        let (holder, _) = try await Self.holder(["--transport", "bluez", "--ble-mode", mode, "--timeout", Self.programTimeout],
                                          environment: bluetoothd.environment)
        #expect(await holder.waitForStandardError(containing: "advertising through bluetoothd"), "\(holder.standardError)")
        kill(holder.processIdentifier, signal)
        let result = await holder.wait(timeout: 30)
        let report = bluetoothd.stop()

        #expect(result.status == 128 + signal, "\(result.standardError)")
        #expect(report.contains { $0.hasPrefix("unregistered advertisement ") }, "\(report)")
        #expect(report.contains { $0.hasPrefix("unregistered application ") }, "\(report)")
        #expect(!report.contains { $0.hasPrefix("abandoned ") }, "\(report)")
        #expect(report.last == "registrations 0", "\(report)")
    }

    @Test("a reader whose link through bluetoothd is in use ends at once when bluetoothd leaves the bus")
    func bluetoothdLeavesDuringALink() async throws {
        let bluetoothd = try Bluetoothd()
        // The holder serves on sim and asks for consent on its input: the reader's link through
        // bluetoothd stays in use, the request delivered, until it is answered.
        let (holder, uri) = try await Self.holder(["--transport", "sim", "--ble-mode", "peripheral", "--timeout", "600"],
                                                  environment: bluetoothd.environment, consent: false)
        let reader = try BackgroundProgram("mdoc-reader", [
            "request", uri, "--preset", "age-over-18", "--json", "--timeout", "600", "--transport", "bluez", "--ble-mode", "peripheral",
        ] + HCISessionTests.trust, environment: bluetoothd.environment)
        #expect(await holder.waitForOutput(containing: "Release [a]ll", timeout: 60), "\(holder.standardError)")
        bluetoothd.standIn.restart()
        // Far sooner than the reader's 600 s: only bluetoothd leaving can end it within this.
        let readerResult = await reader.wait(timeout: 60)
        _ = await holder.terminate()
        _ = bluetoothd.stop()
        #expect(readerResult.status == 8, "\(readerResult.standardError)")
        #expect(readerResult.standardError.contains("bluetoothd left the D-Bus system bus"), "\(readerResult.standardError)")
    }

    @Test("Ctrl-C while bluetoothd has not answered RegisterApplication yet: the application is unregistered once it has")
    func interruptedWhileRegistering() async throws {
        // bluetoothd takes 1.5 s to answer RegisterApplication; the holder asks right after its
        // engagement, and is interrupted while the call is out.
        let bluetoothd = try Bluetoothd(["--register-delay", "1.5"])
        let (holder, _) = try await Self.holder(["--transport", "bluez", "--ble-mode", "peripheral", "--timeout", Self.programTimeout],
                                          environment: bluetoothd.environment)
        // The call is out: the stand-in read the application and holds its answer back.
        #expect(await bluetoothd.standIn.line(startingWith: "registering application ") != nil)
        holder.signal(SIGINT)
        let result = await holder.wait(timeout: 30)
        // Past the answer, so that a registration the holder left behind is counted: it is
        // unregistered, or abandoned as the holder has left the bus.
        #expect(await bluetoothd.standIn.line(startingWith: "registered application ") != nil)
        _ = await bluetoothd.standIn.line(startingWith: "unregistered application ", "abandoned application ")
        let report = bluetoothd.stop()

        #expect(result.status == 130, "\(result.standardError)")
        #expect(!report.contains { $0.hasPrefix("abandoned ") }, "\(report)")
        #expect(report.last == "registrations 0", "\(report)")
    }

    @Test("a holder that meets no reader, and a reader whose holder never connects, unregister what they registered")
    func failures() async throws {
        let bluetoothd = try Bluetoothd()
        let (holder, uri) = try await Self.holder(["--transport", "bluez", "--ble-mode", "peripheral", "--timeout", "2"],
                                            environment: bluetoothd.environment)
        let holderResult = await holder.wait(timeout: 60)
        #expect(holderResult.status == 8, "\(holderResult.standardError)")
        #expect(holderResult.standardError.contains("within 2 s"), "\(holderResult.standardError)")

        // A central-mode engagement whose holder is gone: the reader serves, nobody comes.
        let (centralHolder, centralURI) = try await Self.holder(["--transport", "sim", "--ble-mode", "central", "--timeout", "1"],
                                                          environment: ["MDOC_SIM_NAMESPACE": "elsewhere-\(UUID().uuidString)"])
        _ = await centralHolder.wait(timeout: 30)
        let reader = try await ProgramRunner.run("mdoc-reader", [
            "request", centralURI, "--timeout", "2", "--transport", "bluez",
        ] + HCISessionTests.trust, timeout: 60, environment: bluetoothd.environment)
        #expect(reader.status == 8, "\(reader.standardError)")
        let report = bluetoothd.stop()

        #expect(report.filter { $0.hasPrefix("registered application ") }.count == 2, "\(report) \(uri)")
        #expect(report.filter { $0.hasPrefix("unregistered application ") }.count == 2, "\(report)")
        #expect(report.last == "registrations 0", "\(report)")
    }

    @Test("when bluetoothd restarts, the session waiting on it ends at once and the next one is served by it again",
          arguments: ["peripheral", "central"])
    func bluetoothdRestarts(mode: String) async throws {
        let bluetoothd = try Bluetoothd()
        // A session timeout far beyond the waits below: only bluetoothd leaving can end the
        // first session within them.
        let (holder, _) = try await Self.holder(["--transport", "bluez", "--ble-mode", mode, "--timeout", "600", "--keep-running"],
                                          environment: bluetoothd.environment)
        // Logged once the session has registered (or started discovering) through bluetoothd.
        let serving = mode == "peripheral" ? "advertising through bluetoothd" : "discovering through bluetoothd"
        #expect(await holder.waitForStandardError(containing: serving, timeout: 60))
        bluetoothd.standIn.restart()
        let ended = await holder.waitForStandardError(containing: "bluetoothd left the D-Bus system bus", timeout: 60)
        #expect(ended, "\(holder.standardError)")
        // A session may start while bluetoothd is away and fail at once; the next one that
        // reaches the restarted bluetoothd serves a reader on sim. Its engagement is the last
        // printed: it waits for the reader.
        guard ended, await holder.waitForStandardError(containing: serving, count: 2, timeout: 60),
              let uri = holder.standardOutput.split(separator: "\n").last(where: { $0.hasPrefix("mdoc:") }).map(String.init)
        else {
            _ = await holder.terminate()
            _ = bluetoothd.stop()
            Issue.record("no session after the restart reached bluetoothd: \(holder.standardError)")
            return
        }
        let reader = try await ProgramRunner.run("mdoc-reader", [
            "request", uri, "--preset", "age-over-18", "--json", "--timeout", Self.programTimeout, "--transport", "sim",
        ] + HCISessionTests.trust, timeout: 120, environment: bluetoothd.environment)
        holder.signal(SIGINT)
        let holderResult = await holder.wait(timeout: 60)
        let report = bluetoothd.stop()
        // The holder's debug log and the stand-in's report say which session the reader met.
        #expect(reader.status == 0, "\(reader.standardError)\nthe holder:\n\(holderResult.standardError)\nthe stand-in: \(report)")
        #expect(try ReaderJSON(reader.standardOutput).outcome == "verified")
        // A --keep-running holder that is interrupted ends with 0 and counts its sessions.
        #expect(holderResult.status == 0, "\(holderResult.standardError)")
        #expect(holderResult.standardError.contains("mdoc-holder: interrupted after"), "\(holderResult.standardError)")
        #expect(report.last == "registrations 0", "\(report)")
    }

    @Test("bluetoothd's refusals are reported before anything starts, with what to do",
          arguments: [
              (["--no-adapter"], "bluetoothd has no Bluetooth adapter"),
              (["--powered-off"], "adapter hci0 is powered off: power it on with `bluetoothctl power on`"),
              (["--deny"], "not permitted to use bluetoothd"),
              (["--advertising-slots", "0"], "all advertising slots are in use"),
          ])
    func refusals(options: [String], message: String) async throws {
        let bluetoothd = try Bluetoothd(options)
        let result = try await ProgramRunner.run("mdoc-holder", [
            "present", "--credential", "Certs/demo/mdl.mdoc", "--yes", "--no-qr", "--transport", "bluez", "--ble-mode", "peripheral",
            "--timeout", "10",
        ], timeout: 60, environment: bluetoothd.environment)
        let report = bluetoothd.stop()

        #expect(result.status == 8, "\(result.standardError)")
        #expect(result.standardError.contains(message), "\(result.standardError)")
        // Refused before anything was registered.
        #expect(!report.contains { $0.hasPrefix("registered ") }, "\(report)")
        #expect(report.last == "registrations 0", "\(report)")
    }

    @Test("an adapter that is powered off still makes bluez the default, which says to power it on")
    func poweredOffDefault() async throws {
        let bluetoothd = try Bluetoothd(["--powered-off"])
        let scan = try await ProgramRunner.run("mdoc-reader", ["scan", "--timeout", "1"], timeout: 60, environment: bluetoothd.environment)
        _ = bluetoothd.stop()
        #expect(scan.status == 8)
        #expect(scan.standardError.contains("cannot use bluez: adapter hci0 is powered off"), "\(scan.standardError)")
    }

    @Test("without bluetoothd or without a system bus, bluez says so and the default transport is sim")
    func absent() async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let noBluetoothd = try await ProgramRunner.run("mdoc-reader", ["scan", "--transport", "bluez", "--timeout", "1"],
                                                 timeout: 60, environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
        #expect(noBluetoothd.status == 8)
        #expect(noBluetoothd.standardError.contains("bluetoothd is not running"), "\(noBluetoothd.standardError)")

        let noBus = try await ProgramRunner.run("mdoc-reader", ["scan", "--transport", "bluez:hci0", "--timeout", "1"],
                                          timeout: 60, environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/swift-mdoc-bus"])
        #expect(noBus.status == 8)
        #expect(noBus.standardError.contains("no D-Bus system bus answers"), "\(noBus.standardError)")

        let fallback = try await ProgramRunner.run("mdoc-reader", ["scan", "--timeout", "0.2"],
                                             timeout: 60, environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
        #expect(fallback.status == 0, "\(fallback.standardError)")
        #expect(fallback.standardError.contains("over sim"), "\(fallback.standardError)")
    }

    @Test("with bluetoothd and an adapter, bluez is the default; mdoc-reader scan lists a holder through it")
    func defaultAndScan() async throws {
        let bluetoothd = try Bluetoothd()
        let (holder, uri) = try await Self.holder(["--transport", "sim", "--ble-mode", "peripheral", "--timeout", "30"],
                                            environment: bluetoothd.environment)
        defer { holder.stop() }
        let scan = try await ProgramRunner.run("mdoc-reader", ["scan", "--timeout", "1", "--json"],
                                         timeout: 60, environment: bluetoothd.environment)
        let engagement = try await ProgramRunner.run("mdoc", ["inspect", "--diagnostic", uri], timeout: 60)
        _ = bluetoothd.stop()

        #expect(scan.status == 0, "\(scan.standardError)")
        #expect(scan.standardError.contains("over bluez"), "\(scan.standardError)")
        let scanned = try #require(try JSONSerialization.jsonObject(with: Data(scan.standardOutput.utf8)) as? [String: Any])
        #expect(scanned["schemaVersion"] as? Int == 1 && scanned["type"] as? String == "scan", "\(scan.standardOutput)")
        let listed = try #require(scanned["devices"] as? [[String: Any]])
        let uuid = try #require(listed.first?["serviceUUIDs"] as? [String]).first ?? ""
        #expect(listed.count == 1 && listed.first?["rssi"] as? Int == -42, "\(scan.standardOutput)")
        #expect(engagement.standardOutput.contains("h'\(uuid.replacingOccurrences(of: "-", with: "").lowercased())'"),
                "\(uuid) in \(engagement.standardOutput)")
    }
}
