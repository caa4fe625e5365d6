import ArgumentParser
import MdocBLE
import MdocCommandLine
import MdocFiles
import MdocTerminal
import MdocText

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `mdoc-reader scan`: lists nearby holders advertising an ISO/IEC 18013-5 service.
struct Scan: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List nearby mdocs advertising an ISO/IEC 18013-5 BLE service.",
        discussion: """
            Scans for --timeout seconds and lists each device that advertised a 128-bit service \
            UUID: its address, the strongest RSSI seen and the UUIDs. An mdoc in peripheral \
            server mode advertises the random (version 4) UUID of its engagement (ISO/IEC \
            18013-5 8.3.3.1.1.4, Table A.1), so only connectable devices advertising a version 4 \
            UUID are listed unless --all is given. Over sim, the advertised service names are \
            listed.

            Examples:
              mdoc-reader scan --transport hci:tcp:127.0.0.1:9002 --timeout 3
              mdoc-reader scan --transport hci:user:1 --all --json

            Exit codes: 0 the scan ran (even when it found nothing); 8 the transport could not \
            be opened; 64 usage error.
            """
    )

    @OptionGroup var live: LiveTransportOptions

    @Option(help: "Seconds to scan.")
    var timeout: Double = 5

    @Flag(help: "List every device advertising a 128-bit service UUID, not only likely mdocs.")
    var all = false

    @Flag(help: "Print the devices as JSON.")
    var json = false

    func validate() throws {
        guard timeout > 0 else {
            throw ValidationError("--timeout must be more than 0 seconds")
        }
    }

    func run() async throws {
        live.bootstrapLogging()
        await ProgramFailure.reporting(program: "mdoc-reader") { () async throws(ProgramFailure) in
            try await scan()
        }
    }

    private func scan() async throws(ProgramFailure) {
        let transport = await live.resolvedTransport()
        let adapter = try await live.openRadio()
        ProgramOutput.standardError.writeProgressLine("mdoc-reader: scanning for \(timeout) s over \(transport)")
        let sightings: [BLEPeripheralSighting]
        do {
            sightings = try await adapter.scan(for: .milliseconds(Int64(timeout * 1000)))
        } catch {
            await adapter.close()
            throw ProgramFailure(.sessionFailed, "scanning over \(transport) failed: \(error)")
        }
        await adapter.close()
        let shown = all ? sightings : sightings.filter { $0.isConnectable && $0.serviceUUIDs.contains(where: Self.isRandom) }
        if json {
            ProgramOutput.standardOutput.writeLine(TerminalText(lines: ScanReport.json(shown).serialized(pretty: true)))
        } else {
            ProgramOutput.standardOutput.write(ScanReport.text(shown, all: all))
        }
    }

    /// Whether `uuid` is a version 4 (random) UUID of the RFC 4122 variant, as 18013-5 service
    /// UUIDs are.
    static func isRandom(_ uuid: UUID) -> Bool {
        let bytes = uuid.uuid
        return bytes.6 >> 4 == 4 && bytes.8 >> 6 == 0b10
    }
}
