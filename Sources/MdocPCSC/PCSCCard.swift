import CPCSC
import NIOConcurrencyHelpers

/// A connection to the card in a reader (PC/SC part 5, `SCardConnect`), made by
/// ``PCSCContext/connect(to:share:)``: APDUs to the card and its answers as raw bytes
/// (ISO/IEC 7816-4 5.1), the card's status, and the reader's largest APDU.
///
/// The connection ends by ``disconnect(_:)``, or, leaving the card as it is, when the last
/// reference to it goes. It keeps its context.
public final class PCSCCard: Sendable {
    /// How the connection shares the card with other applications (`SCARD_SHARE_*`).
    public enum ShareMode: UInt, Sendable {
        /// No other application connects while this connection lasts (`SCARD_SHARE_EXCLUSIVE`).
        case exclusive = 1
        /// Others may connect too (`SCARD_SHARE_SHARED`).
        case shared = 2
    }

    /// The transmission protocol of a connection (ISO/IEC 7816-3 clauses 10 and 11;
    /// `SCARD_PROTOCOL_*`).
    public struct TransmissionProtocol: Sendable, Hashable, CustomStringConvertible {
        /// The `SCARD_PROTOCOL_*` value.
        public let rawValue: UInt
        /// `SCARD_PROTOCOL_T0`, the character protocol.
        public static let t0 = Self(rawValue: 0x0001)
        /// `SCARD_PROTOCOL_T1`, the block protocol.
        public static let t1 = Self(rawValue: 0x0002)
        /// `SCARD_PROTOCOL_RAW`.
        public static let raw = Self(rawValue: 0x0004)

        /// The protocol `rawValue`.
        public init(rawValue: UInt) {
            self.rawValue = rawValue
        }

        /// `T=0`, `T=1`, `raw`, or the value.
        public var description: String {
            switch self {
            case .t0: "T=0"
            case .t1: "T=1"
            case .raw: "raw"
            default: "protocol \(rawValue)"
            }
        }
    }

    /// What happens to the card when the connection ends (`SCARD_LEAVE_CARD`, ...).
    public enum Disposition: UInt, Sendable {
        /// The card stays as it is.
        case leave = 0
        /// The card is reset.
        case reset = 1
        /// The card is powered down.
        case unpower = 2
    }

    /// What `SCardStatus` says of the card.
    public struct Status: Sendable, Hashable {
        /// The reader's name.
        public let reader: String
        /// The `SCARD_ABSENT`, `SCARD_PRESENT`, `SCARD_POWERED`, `SCARD_NEGOTIABLE`,
        /// `SCARD_SPECIFIC`... flags in the low 16 bits (pcsc-lite counts the reader's events in
        /// the upper ones).
        public let state: UInt
        /// The protocol in use.
        public let transmissionProtocol: TransmissionProtocol
        /// The card's answer to reset.
        public let atr: [UInt8]

        /// Whether a card is in the reader (`SCARD_PRESENT`).
        public var isPresent: Bool { state & 0x0004 != 0 }

        /// Whether the card is powered (`SCARD_POWERED`).
        public var isPowered: Bool { state & 0x0010 != 0 }
    }

    /// The longest ATR, 33 octets (ISO/IEC 7816-3 8.2.1; pcsc-lite's `MAX_ATR_SIZE`).
    public static let maximumATRLength = 33
    /// The longest command APDU this connection sends, 65544 octets: an extended case 4 command,
    /// 4 header octets, Lc in 3, 65535 data octets and Le in 2 (ISO/IEC 7816-4 5.1). A reader
    /// may carry less (``maximumAPDUDataSize()``).
    public static let maximumCommandLength = 4 + 3 + 65_535 + 2
    /// The longest response APDU, 65538 octets: 65536 data octets (Le `0000` in an extended
    /// command) and the status word (ISO/IEC 7816-4 5.1). The receive buffer is pcsc-lite's
    /// `MAX_BUFFER_SIZE_EXTENDED`, which holds it.
    public static let maximumResponseLength = 65_536 + 2
    /// The shortest command APDU, its 4 header octets (ISO/IEC 7816-4 5.1, case 1).
    public static let minimumCommandLength = 4
    /// The shortest response APDU, its status word (ISO/IEC 7816-4 5.1). A reader that returns
    /// less carried no answer: vsmartcard's vpcd returns nothing, with success, when the card
    /// left during the command.
    public static let minimumResponseLength = 2

    /// The reader's name.
    public let reader: String
    /// The protocol pcscd set up.
    public let transmissionProtocol: TransmissionProtocol
    let context: PCSCContext
    let handle: SCARDHANDLE
    private let isConnected = NIOLockedValueBox(true)

    init(context: PCSCContext, handle: SCARDHANDLE, reader: String, protocol: TransmissionProtocol) {
        self.context = context
        self.handle = handle
        self.reader = reader
        self.transmissionProtocol = `protocol`
    }

    deinit {
        guard isConnected.withLockedValue({ $0 }) else { return }
        let handle = self.handle
        context.worker.runWithoutWaiting { _ = SCardDisconnect(handle, DWORD(Disposition.leave.rawValue)) }
    }

    /// Sends the command APDU `command` to the card and returns its response APDU, status word
    /// included (`SCardTransmit`). `invalidCommand` for a command shorter than
    /// ``minimumCommandLength`` or longer than ``maximumCommandLength``;
    /// `cardRemoved` when the card has gone; `notTransacted` when the
    /// reader did not carry the command and its answer, or returned less than
    /// ``minimumResponseLength`` octets.
    public func transmit(_ command: [UInt8]) async throws(PCSCError) -> [UInt8] {
        guard command.count >= Self.minimumCommandLength else {
            throw PCSCError(.invalidCommand, "a command APDU of \(command.count) octets: it has at least the \(Self.minimumCommandLength) of its header", context: nil)
        }
        guard command.count <= Self.maximumCommandLength else {
            throw PCSCError(.invalidCommand, "a command APDU of \(command.count) octets, above the \(Self.maximumCommandLength) of an extended APDU", context: nil)
        }
        let handle = self.handle
        let protocolValue = DWORD(transmissionProtocol.rawValue)
        let (result, response) = try await context.worker.run { () -> (LONG, [UInt8]) in
            var request = SCARD_IO_REQUEST(dwProtocol: protocolValue, cbPciLength: DWORD(MemoryLayout<SCARD_IO_REQUEST>.size))
            var response = [UInt8](repeating: 0, count: PCSCLibrary.extendedBufferSize)
            var length = DWORD(response.count)
            let result = SCardTransmit(handle, &request, command, DWORD(command.count), nil, &response, &length)
            response.removeSubrange(Int(min(length, DWORD(response.count)))...)
            return (result, response)
        }
        let code = PCSCLibrary.responseCode(result)
        guard code == .success else { throw PCSCError("SCardTransmit of \(command.count) octets", code) }
        guard response.count >= Self.minimumResponseLength else {
            throw PCSCError(
                .notTransacted,
                "SCardTransmit of \(command.count) octets returned \(response.count) octets, without the status word of every response: the card may have left",
                context: code)
        }
        return response
    }

    /// The card's status (`SCardStatus`); `cardRemoved` when it has gone.
    public func status() async throws(PCSCError) -> Status {
        let handle = self.handle
        let (result, status) = try await context.worker.run { () -> (LONG, Status) in
            var name = [CChar](repeating: 0, count: 256)
            var nameLength = DWORD(name.count)
            var state = DWORD()
            var activeProtocol = DWORD()
            var atr = [UInt8](repeating: 0, count: Self.maximumATRLength)
            var atrLength = DWORD(atr.count)
            let result = SCardStatus(handle, &name, &nameLength, &state, &activeProtocol, &atr, &atrLength)
            let status = Status(
                reader: PCSCLibrary.names(inMultiString: Array(name.prefix(Int(min(nameLength, DWORD(name.count)))))).first ?? "",
                state: UInt(state), transmissionProtocol: TransmissionProtocol(rawValue: UInt(activeProtocol)),
                atr: Array(atr.prefix(Int(min(atrLength, DWORD(atr.count))))))
            return (result, status)
        }
        let code = PCSCLibrary.responseCode(result)
        guard code == .success else { throw PCSCError("SCardStatus", code) }
        return status
    }

    /// The most data octets the reader carries in one APDU, as its driver reports it through the
    /// PC/SC part 10 properties (`FEATURE_GET_TLV_PROPERTIES`, `dwMaxAPDUDataSize`): 0 for a
    /// reader of short APDUs only, up to 65536 for one of extended APDUs. Nil when the driver
    /// does not report it (libccid does for CCID readers; vsmartcard's vpcd before 0.9 does
    /// not): the caller then tries an extended APDU and falls back to short ones when the
    /// reader fails it (`notTransacted`, or a status word `6700` from the card).
    public func maximumAPDUDataSize() async throws(PCSCError) -> Int? {
        let features = try await control(PCSCReaderFeatures.getFeatureRequest, call: "SCardControl(CM_IOCTL_GET_FEATURE_REQUEST)")
        guard let features, let code = PCSCReaderFeatures.controlCode(of: PCSCReaderFeatures.getTLVProperties, in: features) else { return nil }
        guard let properties = try await control(code, call: "SCardControl(FEATURE_GET_TLV_PROPERTIES)") else { return nil }
        return PCSCReaderFeatures.property(PCSCReaderFeatures.maximumAPDUDataSizeTag, in: properties)
    }

    /// Ends the connection (`SCardDisconnect`), doing `disposition` to the card. Idempotent.
    public func disconnect(_ disposition: Disposition = .leave) async throws(PCSCError) {
        let first = isConnected.withLockedValue { connected in
            defer { connected = false }
            return connected
        }
        guard first else { return }
        let handle = self.handle
        let result = try await context.worker.run { SCardDisconnect(handle, DWORD(disposition.rawValue)) }
        let code = PCSCLibrary.responseCode(result)
        guard code == .success else { throw PCSCError("SCardDisconnect", code) }
    }

    /// `SCardControl` with `controlCode` and no input: its output, or nil when the reader's
    /// driver does not do it.
    private func control(_ controlCode: UInt, call: String) async throws(PCSCError) -> [UInt8]? {
        let handle = self.handle
        let (result, output) = try await context.worker.run { () -> (LONG, [UInt8]) in
            var output = [UInt8](repeating: 0, count: PCSCReaderFeatures.maximumOutputLength)
            var length = DWORD()
            let result = SCardControl(handle, DWORD(controlCode), nil, 0, &output, DWORD(output.count), &length)
            return (result, Array(output.prefix(Int(min(length, DWORD(output.count))))))
        }
        let code = PCSCLibrary.responseCode(result)
        switch code {
        case .success: return output
        case .unsupportedFeature, .notTransacted: return nil
        default: throw PCSCError(call, code)
        }
    }
}
