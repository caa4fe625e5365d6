#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import Logging
@testable import MdocBLE
@testable import MdocLEHost
import Testing

@Suite("HCI transports: tcp, serial, user channel, btsnoop (docs/architecture.md section 4)", .timeLimit(.minutes(1)))
struct HCITransportTests {
    @Test("transport names parse, and bad ones say what is expected")
    func specs() throws {
        #expect(try HCITransportSpec(parsing: "tcp:127.0.0.1:9001") == .tcp(host: "127.0.0.1", port: 9001))
        #expect(try HCITransportSpec(parsing: "tcp:[::1]:9001") == .tcp(host: "::1", port: 9001))
        #expect(try HCITransportSpec(parsing: "serial:/dev/ttyACM0") == .serial(path: "/dev/ttyACM0", baudRate: 1_000_000, flowControl: false))
        #expect(try HCITransportSpec(parsing: "serial:/dev/ttyUSB1,115200,rtscts") == .serial(path: "/dev/ttyUSB1", baudRate: 115_200, flowControl: true))
        #expect(try HCITransportSpec(parsing: "user:0") == .userChannel(index: 0))
        #expect("\(try HCITransportSpec(parsing: "tcp:[::1]:9001"))" == "tcp:[::1]:9001")
        for bad in ["tcp:127.0.0.1", "tcp:host:0", "tcp::9001", "tcp:host:70000", "serial:", "serial:/dev/x,fast", "user:", "user:hci0", "usb:0", ""] {
            #expect(throws: BLEError(.invalidTransport, ""), "\(bad)") { try HCITransportSpec(parsing: bad) }
        }
    }

    /// Whether `body` throws `transportUnavailable` with a reason containing `text`.
    static func unavailable(_ text: String, _ body: () async throws(BLEError) -> HCITransport) async -> Bool {
        do {
            _ = try await body()
            return false
        } catch {
            return error.code == .transportUnavailable && error.reason.contains(text)
        }
    }

    @Test("hci:tcp with nothing listening says to start a controller")
    func tcpRefused() async throws {
        // A port that was free a moment ago: bound, then closed.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        close(fd)
        let port = UInt16(bigEndian: address.sin_port)
        #expect(await Self.unavailable("nothing listens") { () throws(BLEError) in
            try await HCITransport.open(.tcp(host: "127.0.0.1", port: port))
        })
        #expect(await Self.unavailable("cannot resolve") { () throws(BLEError) in
            try await HCITransport.open(.tcp(host: "no-such-host.invalid", port: 9001))
        })
    }

    @Test("hci:serial: a missing device, a file that is not a terminal, an unsupported rate")
    func serialErrors() async throws {
        #expect(await Self.unavailable("no such device") { () throws(BLEError) in
            try await HCITransport.open(.serial(path: "/dev/nonexistent-hci-dongle", baudRate: 115_200, flowControl: false))
        })
        #expect(await Self.unavailable("not a serial device") { () throws(BLEError) in
            try await HCITransport.open(.serial(path: "/dev/null", baudRate: 115_200, flowControl: false))
        })
        await #expect(throws: BLEError(.invalidTransport, "")) {
            try await HCITransport.open(.serial(path: "/dev/null", baudRate: 123_456, flowControl: false))
        }
    }

    @Test("hci:user without Bluetooth in the kernel (or without the adapter) says what to do")
    func userChannel() async throws {
        do {
            let transport = try await HCITransport.open(.userChannel(index: 63))
            transport.close()
            Issue.record("hci63 opened")
        } catch {
            #expect(error.code == .transportUnavailable)
            #expect(error.reason.hasPrefix("hci:user:63: "))
            // This machine has no AF_BLUETOOTH (errno 97); with Bluetooth, hci63 does not exist
            // or the process lacks CAP_NET_ADMIN.
            #expect(["no Bluetooth support", "no adapter hci63", "CAP_NET_ADMIN"].contains { error.reason.contains($0) })
        }
    }

    @Test("a controller on a serial line (a pseudo-terminal): H4 written and read in raw mode, byte by byte")
    func serialOverPseudoTerminal() async throws {
        // /dev/ptmx, unlocked with TIOCSPTLCK, its slave named by TIOCGPTN (pty(7); the ioctl
        // numbers of asm-generic/ioctls.h, which Swift does not import as macros).
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        try #require(master >= 0)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        try #require(ioctl(master, 0x4004_5431, &unlock) == 0 && ioctl(master, 0x8004_5430, &number) == 0)
        let path = "/dev/pts/\(number)"
        let controller = try await HCITransport.open(descriptor: master, framing: .h4Stream, spec: nil, snoop: nil,
                                                     logger: Logger(label: "test.pty"))
        defer { controller.close() }
        let transport = try await HCITransport.open(.serial(path: path, baudRate: 115_200, flowControl: false))
        defer { transport.close() }
        let fromHost = try await HCIPacketInbox(controller)
        let fromController = try await HCIPacketInbox(transport)

        transport.send(HCIPacket.command(HCICommand.reset))
        #expect(await fromHost.next() == HCIPacket.command(.reset))
        // One byte per write: the host reads the packet whole however the line delivers it.
        let complete = HCIPacket.event(code: 0x0E, parameters: [0x01, 0x03, 0x0C, 0x00])
        controller.sendBytewise(complete.h4Bytes)
        #expect(await fromController.next() == complete)
        // Raw mode: bytes a terminal would translate (CR, XON/XOFF, ^C) pass unchanged.
        let raw = HCIPacket.aclData(HCIACLData(handle: 1, packetBoundary: .firstFlushable, data: [0x0D, 0x0A, 0x11, 0x13, 0x03, 0x7F]))
        controller.send(raw)
        #expect(await fromController.next() == raw)
    }

    @Test("btsnoop: the header, then each packet with direction, kind and an increasing timestamp")
    func btsnoop() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hci-\(UUID()).btsnoop").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (controller, transport) = try await ScriptedController.make(snoop: try BTSnoopWriter(path: path))
        let host = LEHost(transport: transport, logger: Logger(label: "test.hci"))
        try await host.start()
        let events = await host.statistics.eventsReceived
        try await controller.event(0x13, [0x01, 0x40, 0x00, 0x00, 0x00])
        // Recorded as it was read, before the host handled it.
        while await host.statistics.eventsReceived == events { await Task.yield() }
        await host.close()
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(Array(bytes[0..<8]) == Array("btsnoop".utf8) + [0])
        #expect(Array(bytes[8..<16]) == [0, 0, 0, 1, 0, 0, 0x03, 0xEA])
        var offset = 16
        var records: [(flags: UInt32, packet: [UInt8], time: Int64)] = []
        func word(_ at: Int) -> UInt32 { bytes[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        while offset + 24 <= bytes.count {
            let length = Int(word(offset))
            #expect(word(offset + 4) == UInt32(length))
            let time = Int64(bitPattern: UInt64(word(offset + 16)) << 32 | UInt64(word(offset + 20)))
            records.append((word(offset + 8), Array(bytes[offset + 24..<offset + 24 + length]), time))
            offset += 24 + length
        }
        #expect(offset == bytes.count)
        #expect(records.count >= 21)
        #expect(records[0].flags == 2 && records[0].packet == HCIPacket.command(.reset).h4Bytes)
        #expect(records[1].flags == 3 && records[1].packet.first == 0x04)
        #expect(records.contains { $0.flags == 3 && $0.packet == [0x04, 0x13, 0x05, 0x01, 0x40, 0x00, 0x00, 0x00] })
        #expect(zip(records, records.dropFirst()).allSatisfy { $0.time <= $1.time })
        // Microseconds since year 0: today is about 63.9 × 10^15.
        let now = BTSnoopWriter.now() + BTSnoopWriter.epochOffset
        #expect(abs(records[0].time - now) < 60_000_000)
        var status = stat()
        #expect(stat(path, &status) == 0 && status.st_mode & 0o777 == 0o600)
    }
}
