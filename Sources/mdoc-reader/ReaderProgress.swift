import MdocBLE
import MdocCommandLine
import MdocPresentation
import MdocRadios
import MdocTerminal
import MdocText
import NIOConcurrencyHelpers

/// The reader's progress lines on standard error, from the events of its session.
final class ReaderProgress: Sendable {
    private let reporter = NIOLockedValueBox(ProgressReporter.standardError(label: "mdoc-reader"))
    /// The `--transport` the session runs over, for the connecting line.
    private let transport: TransportSpec
    /// Whether the messages go over NFC (`--retrieval nfc`) rather than BLE.
    private let overNFC: Bool

    /// Progress of a session over `transport`, or over NFC when `overNFC`.
    init(transport: TransportSpec, overNFC: Bool = false) {
        self.transport = transport
        self.overNFC = overNFC
    }

    /// Shows `event`.
    func show(_ event: ReaderEvent) {
        reporter.withLockedValue { reporter in
            switch event {
            case .connecting(let mode, let uuid):
                reporter.report(.connecting("the mdoc's service \(uuid) in \(mode.rawValue) mode over \(transport)"))
            case .connected(let mtu):
                reporter.report(overNFC ? .connectedOverNFC(envelopeLength: mtu) : .connected(mtu: mtu))
            case .requestSent(let bytes):
                reporter.report(.requestSent(bytes: bytes))
            case .waitingForConsent:
                reporter.report(.waitingForConsent)
            case .received(let bytes):
                reporter.report(.received(bytes: bytes))
                reporter.report(.verifying)
            case .mdocWentQuiet(let error):
                reporter.finish()
                ProgramOutput.standardError.writeLine("mdoc-reader: \(error); ending the session")
            }
        }
    }

    /// Ends an open progress line.
    func finish() {
        reporter.withLockedValue { $0.finish() }
    }
}
