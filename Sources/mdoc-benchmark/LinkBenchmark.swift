// `mdoc-benchmark link`: the demo mDL presented in full (a response of about 20 KB) between two
// LE hosts of this toolkit through two linked Bumble virtual controllers (docs/architecture.md section 4),
// in each ISO/IEC 18013-5 BLE mode, with the real holder and reader state machines.
//
// Reported per mode, over `--sessions N` sessions (default 10):
//   - the ATT PDUs the holder's host sent for the response against the minimum
//     ceil(bytes / (ATT_MTU − 4)) (3 octets of notification or Write Command header, 1 of chunk
//     header, 8.3.3.1.1.6);
//   - the response's octets over the ACL octets that carried them (HCI ACL, L2CAP, ATT and chunk
//     headers included);
//   - wall times (median, p90): link setup (advertise, scan, connect, MTU, discovery, State),
//     the response's transfer (first chunk handed to the link until the reader has the message),
//     and the whole session (setup, request, consent, response, verification);
// beside the OpenSSL work on the same messages, measured in the same run: AES-256-GCM sealing
// and opening of the response (9.1.1.5) and the session key agreement (ECDH P-256, HKDF).
// The virtual controllers are Python: link times are dominated by Bumble's event loop, not by
// the radio a real controller would add.

import MdocBLE
import MdocCBOR
import MdocCrypto
import MdocLEHost
import MdocModel
import MdocPresentation
import MdocSession
import NIOConcurrencyHelpers

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One session's figures.
struct LinkSessionFigures {
    let responseBytes: Int
    let mtu: Int
    let attPDUs: Int
    let aclOctets: Int
    let aclPackets: Int
    let setupMicroseconds: Double
    let transferMicroseconds: Double
    let sessionMicroseconds: Double
}

/// The moments and counters of one session, recorded by the drivers' event handlers.
final class LinkSessionMarks: Sendable {
    struct Figures: Sendable {
        let started: ContinuousClock.Instant
        var connected: ContinuousClock.Instant?
        var sending: ContinuousClock.Instant?
        var delivered: ContinuousClock.Instant?
        var before: LEHostStatistics?
        var after: LEHostStatistics?
        var mtu = 0
        var responseBytes = 0
    }

    private let state: NIOLockedValueBox<Figures>

    init(started: ContinuousClock.Instant) {
        state = NIOLockedValueBox(Figures(started: started))
    }

    /// Records what `change` sets.
    func record(_ change: (inout Figures) -> Void) {
        state.withLockedValue { change(&$0) }
    }

    /// What was recorded.
    var figures: Figures {
        state.withLockedValue { $0 }
    }
}

enum LinkBenchmark {
    /// Runs the benchmark and prints its report.
    static func run(sessions: Int, json: Bool) async {
        let root = Checkout.root
        let (credential, iaca) = Checkout.demoMaterial()
        let request = PresentationSoak.everyElementOfTheDemoMDL

        let controllers = prepare("two Bumble virtual controllers") { try VirtualControllers(count: 2, checkout: root) }
        defer { controllers.stop() }
        let holderHost: LEHost
        let readerHost: LEHost
        do {
            holderHost = try await LEHost.open(.tcp(host: "127.0.0.1", port: UInt16(controllers.ports[0])))
            readerHost = try await LEHost.open(.tcp(host: "127.0.0.1", port: UInt16(controllers.ports[1])))
        } catch {
            fail("cannot start the LE hosts: \(error)")
        }

        var results: [(MdocBLEMode, [LinkSessionFigures])] = []
        for mode in MdocBLEMode.allCases {
            var figures: [LinkSessionFigures] = []
            for _ in 0..<sessions {
                figures.append(await session(mode: mode, credential: credential, iaca: iaca, request: request,
                                             holderHost: holderHost, readerHost: readerHost))
            }
            results.append((mode, figures))
        }
        await holderHost.close()
        await readerHost.close()

        let responseBytes = results[0].1[0].responseBytes
        let primitives = openSSLFloor(responseBytes: responseBytes)
        report(results, primitives: primitives, json: json)
    }

    /// One whole session in `mode`, the holder's and the reader's drivers side by side; ends
    /// the program when the session fails or the response does not verify.
    private static func session(
        mode: MdocBLEMode, credential: Credential, iaca: Certificate, request: [DocRequestSpec],
        holderHost: LEHost, readerHost: LEHost
    ) async -> LinkSessionFigures {
        let clock = ContinuousClock()
        let marks = LinkSessionMarks(started: clock.now)
        let options = BleOptions.offering(peripheralServerMode: mode == .peripheralServer, centralClientMode: mode == .centralClient)
        let timeouts = SessionTimeouts(connection: .seconds(30), idle: .seconds(30))
        let holder = prepare("a holder session") {
            try HolderDriver(
                credentials: [credential], bleOptions: options, trust: ReaderRootTrust(trustAnchors: []),
                consent: HolderConsent.approvingAllAvailable, timeouts: timeouts
            ) { event in
                switch event {
                case .connected: marks.record { $0.connected = clock.now }
                case .sending:
                    let before = await holderHost.statistics
                    marks.record { $0.before = before; $0.sending = clock.now }
                default: break
                }
            }
        }
        let reader = prepare("a reader session") {
            try ReaderDriver(uri: holder.mdocURI, request: request, trustAnchors: [iaca], timeouts: timeouts) { event in
                switch event {
                case .connected(let mtu): marks.record { $0.mtu = mtu }
                case .received(let bytes):
                    let delivered = clock.now
                    let after = await holderHost.statistics
                    marks.record { $0.after = after; $0.delivered = delivered; $0.responseBytes = bytes }
                default: break
                }
            }
        }
        async let holderSide = holder.run(over: holderHost)
        let read = await reader.run(over: readerHost, mode: mode)
        let presented = await holderSide
        let finished = clock.now
        guard read.end.isNormalEnd, presented.end.isNormalEnd else {
            fail("a \(mode.rawValue) mode session failed: reader: \(read.end); holder: \(presented.end)")
        }
        guard read.report?.outcome == .verified else { fail("the response did not verify") }
        let figures = marks.figures
        guard let connected = figures.connected, let sending = figures.sending, let delivered = figures.delivered,
              let before = figures.before, let after = figures.after else {
            fail("a \(mode.rawValue) mode session left out a step")
        }
        return LinkSessionFigures(
            responseBytes: figures.responseBytes, mtu: figures.mtu,
            attPDUs: after.attPDUsSent - before.attPDUsSent, aclOctets: after.aclOctetsSent - before.aclOctetsSent,
            aclPackets: after.aclPacketsSent - before.aclPacketsSent,
            setupMicroseconds: Stopwatch.microseconds(connected - figures.started),
            transferMicroseconds: Stopwatch.microseconds(delivered - sending),
            sessionMicroseconds: Stopwatch.microseconds(finished - figures.started))
    }

    /// The OpenSSL work on the same messages, timed in this run.
    private static func openSSLFloor(responseBytes: Int) -> [Measurement] {
        let payload = (0..<responseBytes).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let key = SymmetricKey(bytes: [UInt8](repeating: 7, count: 32))
        let nonce = SessionEncryption.nonce(identifier: [0, 0, 0, 0, 0, 0, 0, 1], counter: 1)
        let sealed = prepare("a sealed response") { try AESGCM.seal(payload, key: key, nonce: nonce) }
        let own = prepare("a P-256 key") { try PrivateKey(generating: .p256) }
        let peer = prepare("a P-256 key") { try PrivateKey(generating: .p256).publicKey }
        let transcript = [UInt8](repeating: 0x5A, count: 160)
        let benchmarks = [
            Benchmark("AES-256-GCM seal, \(responseBytes) bytes") {
                try AESGCM.seal(payload, key: key, nonce: nonce)
            } check: { $0 == sealed },
            Benchmark("AES-256-GCM open, \(responseBytes) bytes") {
                try AESGCM.open(sealed, key: key, nonce: nonce)
            } check: { $0 == payload },
            Benchmark("ECDH P-256 + HKDF SKReader, SKDevice") {
                try SessionKeys(privateKey: own, peerPublicKey: peer, sessionTranscriptBytes: transcript)
            } check: { $0.skReader != $0.skDevice },
        ]
        return Stopwatch(fixedIterations: nil).measure(benchmarks)
    }

    private static func report(_ results: [(MdocBLEMode, [LinkSessionFigures])], primitives: [Measurement], json: Bool) {
        func median(_ values: [Double]) -> Double { Measurement(name: "", samples: values.sorted()).median }
        func p90(_ values: [Double]) -> Double { Measurement(name: "", samples: values.sorted()).p90 }
        var lines: [String] = []
        var objects: [String] = []
        for (mode, figures) in results {
            let first = figures[0]
            let minimum = (first.responseBytes + first.mtu - 5) / (first.mtu - 4)
            let pdus = figures.map(\.attPDUs)
            let efficiency = Double(first.responseBytes) / Double(first.aclOctets)
            let setup = figures.map(\.setupMicroseconds)
            let transfer = figures.map(\.transferMicroseconds)
            let whole = figures.map(\.sessionMicroseconds)
            let throughput = Double(first.responseBytes) / (median(transfer) / 1_000_000) / 1024
            lines.append("""
                \(mode.rawValue) mode: response \(first.responseBytes) bytes, ATT MTU \(first.mtu), \(figures.count) sessions
                    ATT PDUs sent for the response: \(pdus.min()!)–\(pdus.max()!), minimum ceil(\(first.responseBytes) / \(first.mtu - 4)) = \(minimum)
                    ACL packets: \(first.aclPackets), ACL octets: \(first.aclOctets); payload / ACL octets: \(format(efficiency * 100, digits: 1)) %
                    link setup:  median \(format(median(setup) / 1000)) ms, p90 \(format(p90(setup) / 1000)) ms
                    transfer:    median \(format(median(transfer) / 1000)) ms, p90 \(format(p90(transfer) / 1000)) ms (\(format(throughput)) KiB/s)
                    session:     median \(format(median(whole) / 1000)) ms, p90 \(format(p90(whole) / 1000)) ms
                """)
            objects.append("""
                {"mode": "\(mode.rawValue)", "sessions": \(figures.count), "responseBytes": \(first.responseBytes), "mtu": \(first.mtu), \
                "attPDUs": \(pdus.max()!), "minimumATTPDUs": \(minimum), "aclPackets": \(first.aclPackets), "aclOctets": \(first.aclOctets), \
                "payloadOverACL": \(rounded(efficiency)), "setupMedianMilliseconds": \(rounded(median(setup) / 1000)), \
                "transferMedianMilliseconds": \(rounded(median(transfer) / 1000)), "transferP90Milliseconds": \(rounded(p90(transfer) / 1000)), \
                "sessionMedianMilliseconds": \(rounded(median(whole) / 1000))}
                """)
        }
        if json {
            let floor = primitives.map { #"{"name": "\#($0.name)", "medianMicroseconds": \#(rounded($0.median))}"# }
            print("{\n  \"link\": [\n    " + objects.joined(separator: ",\n    ") + "\n  ],\n  \"openSSL\": [\n    "
                  + floor.joined(separator: ",\n    ") + "\n  ]\n}")
        } else {
            print("mdoc-benchmark link: the demo mDL in full over two Bumble virtual controllers (hci:tcp, loopback)")
            lines.forEach { print($0) }
            print("OpenSSL on the same messages, this run (median µs):")
            for measurement in primitives {
                print("    " + pad(measurement.name, 40) + padLeft(format(measurement.median), 10))
            }
        }
    }
}
