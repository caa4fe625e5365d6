import MdocText

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reports the reader's progress through a live session (ISO/IEC 18013-5 9.1.1.4 message flow
/// over the BLE transport of 8.3.3.1.1) as single lines on standard error.
///
/// Each change of phase prints one line. On a terminal, repeated ``Phase/receiving(bytes:)``
/// updates rewrite the current line in place (carriage return and ANSI "erase line"); when
/// standard error is not a terminal no escape sequence is written and only the first
/// `receiving` line of a run appears. The lines are ``TerminalText``: the label and the target
/// are escaped, and the rewrite sequence is the reporter's own.
package struct ProgressReporter: Sendable {
    /// A step of the reader's session.
    package enum Phase: Sendable, Hashable {
        /// Looking for and connecting to the mdoc; the text names the target (service UUID,
        /// transport).
        case connecting(String)
        /// The GATT connection is up, with the negotiated ATT MTU.
        case connected(mtu: Int)
        /// The mdoc application answered over NFC (ISO/IEC 18013-5 8.3.3.1.2); one ENVELOPE
        /// carries this many bytes.
        case connectedOverNFC(envelopeLength: Int)
        /// SessionEstablishment (with the DeviceRequest) was sent, this many bytes.
        case requestSent(bytes: Int)
        /// The mdoc has the request and its holder is deciding what to release (ISO/IEC 18013-5
        /// 8.3.2.1.2.1): a person's decision, which may take a while.
        case waitingForConsent
        /// Part of the response has arrived, this many bytes so far.
        case receiving(bytes: Int)
        /// The whole response (SessionData) arrived, this many bytes.
        case received(bytes: Int)
        /// Decrypting and verifying the DeviceResponse.
        case verifying
    }

    /// The ANSI sequence that returns to the line start and erases the line (ECMA-48 CR, EL 2).
    static let rewriteLine: TerminalText = "\r\u{1B}[2K"

    private let label: String
    private let useANSI: Bool
    private let sink: @Sendable (String) -> Void
    private var lastPhase: Phase?

    /// A reporter writing through `write`, each line starting with `label` and a colon; with
    /// `useANSI` repeated receiving updates overwrite each other.
    package init(label: String, useANSI: Bool, write: @escaping @Sendable (String) -> Void) {
        self.label = label
        self.useANSI = useANSI
        self.sink = write
    }

    /// A reporter on standard error, using ANSI only when standard error is a terminal, and
    /// writing nothing when the program is ``Verbosity/quiet``.
    package static func standardError(label: String) -> ProgressReporter {
        ProgressReporter(label: label, useANSI: ProgramOutput.standardError.isTerminal) {
            guard Verbosity.current != .quiet else { return }
            FileDescriptorWriter.writeAll($0, to: STDERR_FILENO)
        }
    }

    /// Reports `phase`.
    package mutating func report(_ phase: Phase) {
        let line: TerminalText = "\(label): \(Self.text(for: phase))"
        let wasReceiving: Bool
        if case .receiving = lastPhase { wasReceiving = true } else { wasReceiving = false }
        lastPhase = phase
        if case .receiving = phase {
            if useANSI {
                write(Self.rewriteLine + line)
            } else if !wasReceiving {
                write(line + "\n")
            }
            return
        }
        write((useANSI && wasReceiving ? Self.rewriteLine : "") + line + "\n")
    }

    /// Ends an in-place receiving line, if one is open, so that following output starts on a
    /// new line.
    package mutating func finish() {
        if useANSI, case .receiving = lastPhase { write("\n") }
        lastPhase = nil
    }

    private func write(_ text: TerminalText) {
        sink(text.description)
    }

    /// The words for `phase`.
    package static func text(for phase: Phase) -> TerminalText {
        switch phase {
        case .connecting(let target): return "connecting to \(target)"
        case .connected(let mtu): return "connected (ATT MTU \(mtu))"
        case .connectedOverNFC(let length): return "connected over NFC (ENVELOPE data up to \(length) bytes)"
        case .requestSent(let bytes): return "request sent (\(bytes) bytes)"
        case .waitingForConsent: return "waiting for the holder's consent"
        case .receiving(let bytes): return "receiving response (\(bytes) bytes so far)"
        case .received(let bytes): return "response received (\(bytes) bytes)"
        case .verifying: return "verifying"
        }
    }
}
