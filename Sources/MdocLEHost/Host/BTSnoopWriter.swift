import Glibc
import MdocBLE
import MdocPosix
import NIOConcurrencyHelpers

/// Writes every HCI packet a host exchanges with its controller to a btsnoop file, the format
/// of BlueZ's btmon and Android's HCI snoop log that Wireshark opens (RFC 1761 "Snoop Version 2"
/// layout as btsnoop adapts it): a 16-octet header with datalink 1002 (HCI UART, H4), then per
/// packet a 24-octet record header and the packet with its H4 indicator.
///
/// The file is created with mode 0600: it holds device addresses and the (encrypted) session.
public final class BTSnoopWriter: Sendable {
    /// The btsnoop datalink type of packets framed with their H4 indicator.
    public static let datalinkH4: UInt32 = 1002
    /// The identification pattern every btsnoop file starts with.
    static let identification: [UInt8] = Array("btsnoop".utf8) + [0]
    /// Microseconds from midnight, 1 January of year 0 (the btsnoop epoch) to the Unix epoch:
    /// 719,528 days (the value BlueZ's btsnoop writer and Wireshark agree on).
    static let epochOffset: Int64 = 0x00DC_DDB3_0F2F_8000

    /// Which way a packet went.
    public enum Direction: Sendable {
        /// Host to controller.
        case sent
        /// Controller to host.
        case received
    }

    /// The file written.
    public let path: String
    private let descriptor: NIOLockedValueBox<Int32?>

    /// Creates (or truncates) `path` and writes the file header. Throws `systemCall` when the
    /// file cannot be written.
    public init(path: String) throws(BLEError) {
        let fd = try SystemCall.make("open", "creating the btsnoop file \(path)") {
            open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        }
        self.path = path
        descriptor = NIOLockedValueBox(fd)
        var header = Self.identification
        Self.append(UInt32(1), to: &header)  // version
        Self.append(Self.datalinkH4, to: &header)
        if case .failure(let error) = Self.writeAll(header, to: fd) {
            close()
            throw SystemCall.failure("write", error.code, "writing the btsnoop header to \(path)")
        }
    }

    deinit {
        close()
    }

    /// Appends `packet`, which went `direction` at `time` (Unix time in microseconds). A
    /// failed write closes the file; the session goes on without it.
    public func record(_ packet: HCIPacket, direction: Direction, unixMicroseconds time: Int64 = BTSnoopWriter.now()) {
        let bytes = packet.h4Bytes
        var record: [UInt8] = []
        record.reserveCapacity(24 + bytes.count)
        Self.append(UInt32(bytes.count), to: &record)  // original length
        Self.append(UInt32(bytes.count), to: &record)  // included length
        let flags = UInt32(direction == .received ? 1 : 0) | UInt32(packet.isCommandOrEvent ? 2 : 0)
        Self.append(flags, to: &record)
        Self.append(UInt32(0), to: &record)            // cumulative drops
        Self.append(UInt64(bitPattern: time + Self.epochOffset), to: &record)
        record.append(contentsOf: bytes)
        descriptor.withLockedValue { fd in
            guard let open = fd else { return }
            if case .failure = Self.writeAll(record, to: open) {
                Glibc.close(open)
                fd = nil
            }
        }
    }

    /// Closes the file. Idempotent.
    public func close() {
        descriptor.withLockedValue { fd in
            if let open = fd { Glibc.close(open) }
            fd = nil
        }
    }

    /// The current Unix time in microseconds.
    public static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1_000
    }

    private static func append(_ value: some FixedWidthInteger, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Result<Void, SystemCall.Errno> {
        var offset = 0
        while offset < bytes.count {
            let written = SystemCall.make { bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) } }
            switch written {
            case .success(0): return .failure(SystemCall.Errno(code: EIO))
            case .success(let count): offset += count
            case .failure(let error): return .failure(error)
            }
        }
        return .success(())
    }
}
