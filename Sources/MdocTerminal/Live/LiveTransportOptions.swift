import ArgumentParser
import Logging
import MdocBLE

/// The options of every live-session command: the bearer, an HCI packet log, and how much the
/// BLE layers log (ISO/IEC 18013-5 8.3.3.1.1 over design.md section 4's transports).
public struct LiveTransportOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The BLE bearer: sim (a local socket named after the service UUID), hci:tcp:HOST:PORT (a controller over TCP, such as a Bumble virtual controller), hci:serial:DEV[,BAUD][,rtscts] (an HCI UART dongle) or hci:user:N (adapter hciN through the Linux HCI user channel).",
        valueName: "transport"),
            transform: { text in
                do throws(LinkError) {
                    return try TransportSpec(parsing: text)
                } catch {
                    throw ValidationError(error.reason)
                }
            })
    public var transport: TransportSpec = .sim

    @Option(name: .customLong("btsnoop"),
            help: ArgumentHelp("Write every HCI packet to this btsnoop file, which Wireshark opens (hci transports).", valueName: "file"))
    public var btsnoop: String?

    @Option(name: .customLong("log-level"),
            help: ArgumentHelp("How much the BLE layers log on standard error: trace (every HCI packet), debug (ATT MTU, chunk sizes, State changes, Ident, links), info, notice, warning, error or critical.",
                               valueName: "level"))
    public var logLevel: Logger.Level = .warning

    /// The defaults: sim, no btsnoop file, warnings only.
    public init() {}

    public func validate() throws {
        if btsnoop != nil, !transport.carriesHCI {
            throw ValidationError("--btsnoop records HCI packets; it needs an hci:… transport, not \(transport)")
        }
    }

    /// Sends log records of `logLevel` and above to standard error; call once per process.
    public func bootstrapLogging() {
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }

    /// Opens the transport (``TransportSpec/open(btsnoop:logger:)``); a failure becomes the
    /// program's exit status 8 with the reason and what to do.
    public func openAdapter() async throws(ProgramFailure) -> any BLEAdapter {
        do {
            return try await transport.open(btsnoop: btsnoop, logger: Logger(label: "mdoc.hci"))
        } catch {
            throw ProgramFailure(.sessionFailed, error.reason)
        }
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
