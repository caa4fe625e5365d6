import ArgumentParser
import Logging
import MdocBLE
import MdocFiles
import MdocPresentation
import MdocRadios
import MdocTerminal
import MdocText

/// The options of every live-session command: the bearer, an HCI packet log, and how much the
/// program says (`-q`, `-v`) and the BLE layers log (ISO/IEC 18013-5 8.3.3.1.1 over docs/architecture.md section 4's transports).
package struct LiveTransportOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The BLE bearer: bluez[:hciN] (bluetoothd over D-Bus, the default when it runs with an adapter), sim (a local socket named after the service UUID; the default otherwise), hci:tcp:HOST:PORT (a controller over TCP, such as a Bumble virtual controller), hci:serial:DEV[,BAUD][,rtscts] (an HCI UART dongle) or hci:user:N (adapter hciN through the Linux HCI user channel).",
        valueName: "transport"),
            completion: .list(["sim", "bluez", "hci:tcp:", "hci:serial:", "hci:user:"]),
            transform: { text in
                do throws(LinkError) {
                    return try TransportSpec(parsing: text)
                } catch {
                    throw ValidationError(error.reason)
                }
            })
    package var transport: TransportSpec?

    @Option(name: .customLong("btsnoop"),
            help: ArgumentHelp("Write every HCI packet to this btsnoop file, which Wireshark opens (hci transports).", valueName: "file"),
            completion: .file())
    package var btsnoop: String?

    @Option(name: .customLong("log-level"),
            help: ArgumentHelp("How much the BLE layers log on standard error: trace (every HCI packet), debug (ATT MTU, chunk sizes, State changes, Ident, links), info, notice, warning, error or critical.",
                               valueName: "level"))
    package var logLevel: Logger.Level = .warning

    @OptionGroup package var verbosity: VerbosityOptions

    /// The defaults: bluez or sim (``TransportSpec/systemDefault()``), no btsnoop file,
    /// warnings only.
    package init() {}

    /// Refuses `--btsnoop` without an `hci:…` transport, the only ones that carry HCI packets.
    package func validate() throws {
        if btsnoop != nil, transport?.carriesHCI != true {
            throw ValidationError("--btsnoop records HCI packets; it needs an hci:… transport, not \(transport?.description ?? "the default")")
        }
    }

    /// Sets the program's ``Verbosity`` (`-q`, `-v`) and sends log records of `logLevel` and
    /// above (debug and above with `-v`) to standard error, escaped (``TerminalLogHandler``);
    /// call once per process, before the program writes anything.
    package func bootstrapLogging() {
        verbosity.apply()
        let level = verbosity.logLevel(given: logLevel)
        LoggingSystem.bootstrap { label in
            var handler = TerminalLogHandler(label: label)
            handler.logLevel = level
            return handler
        }
    }

    /// The transport given, or the system's default.
    package func resolvedTransport() async -> TransportSpec {
        if let transport { return transport }
        return await TransportSpec.systemDefault()
    }

    /// Opens the transport (``TransportSpec/open(btsnoop:logger:)``), to be closed by the
    /// program or, on SIGINT and SIGTERM, by ``ProgramSignals``; a failure becomes the program's
    /// exit status 8 with the reason and what to do.
    package func openRadio() async throws(ProgramFailure) -> any MdocRadio {
        let radio: any MdocRadio
        do {
            radio = try await resolvedTransport().open(btsnoop: btsnoop, logger: Logger(label: "mdoc.hci"))
        } catch {
            throw ProgramFailure(.sessionFailed, "\(error.reason)")
        }
        ProgramSignals.closeOnSignals(radio)
        return radio
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
