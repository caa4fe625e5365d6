import MdocBLE
import MdocText

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Renders what `mdoc-reader scan` saw: a table for people, JSON for programs. A device's name
/// is whatever it advertises, so the text escapes it (``TerminalText``).
package enum ScanReport {
    /// One line per device: address, RSSI, service UUIDs, name.
    package static func text(_ sightings: [BLEPeripheralSighting], all: Bool) -> TerminalText {
        guard !sightings.isEmpty else {
            return all ? "no device advertised a 128-bit service UUID\n"
                : "no mdoc found (no connectable device advertised a random 128-bit service UUID; --all lists every device)\n"
        }
        let width = max(7, sightings.map(\.address.count).max() ?? 0)
        var text = TerminalText("address").padded(to: width) + "  rssi  service UUID\n"
        for sighting in sightings {
            let rssi = sighting.rssi.map { "\($0)" } ?? "?"
            let uuids = sighting.serviceUUIDs.map(\.uuidString).joined(separator: ", ")
            text += TerminalText(escaping: sighting.address).padded(to: width)
                + "  \(String(repeating: " ", count: max(0, 4 - rssi.count)))\(rssi)  \(uuids)"
            if let name = sighting.name { text += "  \"\(name)\"" }
            if !sighting.isConnectable { text += "  (not connectable)" }
            text += "\n"
        }
        return text
    }

    /// `{"schemaVersion": 1, "type": "scan", "devices": [{"address": …, "rssi": …,
    /// "serviceUUIDs": [...], "name": …, "connectable": …}]}` (docs/json-report.md).
    package static func json(_ sightings: [BLEPeripheralSighting]) -> JSONValue {
        JSONReport.object(.scan, [("devices", .array(sightings.map { sighting in
            .object([
                ("address", .string(sighting.address)),
                ("rssi", sighting.rssi.map { .int(Int64($0)) } ?? .null),
                ("serviceUUIDs", .array(sighting.serviceUUIDs.map { .string($0.uuidString) })),
                ("name", sighting.name.map { .string($0) } ?? .null),
                ("connectable", .bool(sighting.isConnectable)),
            ])
        }))])
    }
}
