#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MdocBLE

/// What of the local bluetoothd's version and settings matters to ISO/IEC 18013-5 sessions: how
/// many ATT bearers it opens to a peer.
///
/// bluetoothd runs Enhanced ATT (EATT, Bluetooth Core 5.2 and later, Vol 3 Part F) with a peer that supports it, over
/// the number of bearers its main.conf sets ([GATT] Channels; 3 unless set, up to BlueZ 5.66,
/// and 1 from BlueZ 5.67 on), and spreads writes and notifications over all of them. ATT keeps no
/// order across bearers, and bluetoothd hands them to applications in the order it reads them,
/// so the chunks of an 18013-5 message (8.3.3.1.1.6), which carry no sequence number, arrive
/// shuffled, truncated at an early last chunk, or both. The GattCharacteristic1 API has no way
/// to choose a bearer. Between two machines with BlueZ 5.66 as shipped (Debian 12), every
/// multi-chunk message is at risk; one machine with Channels = 1 is enough to avoid EATT.
///
/// The version is read from bluetoothd's Device ID, which it shows as the adapter's Modalias
/// (`usb:v1D6Bp0246dMMmm`: Linux Foundation, BlueZ, major and minor).
struct BlueZDaemonSettings: Sendable, Equatable {
    /// A BlueZ release.
    struct Version: Sendable, Comparable, CustomStringConvertible {
        let major: Int
        let minor: Int

        static func < (lhs: Version, rhs: Version) -> Bool {
            (lhs.major, lhs.minor) < (rhs.major, rhs.minor)
        }

        var description: String { "\(major).\(minor)" }
    }

    /// Where bluetoothd reads its settings.
    static let mainConfigurationPath = "/etc/bluetooth/main.conf"
    /// The first release whose bluetoothd opens one ATT bearer unless told otherwise.
    static let singleBearerRelease = Version(major: 5, minor: 67)
    /// The ATT bearers of earlier releases unless told otherwise.
    static let earlierDefaultBearers = 3

    /// bluetoothd's version, nil when its Device ID is not BlueZ's own (main.conf DeviceID).
    let version: Version?
    /// [GATT] Channels as main.conf sets it, nil when it does not.
    let gattChannels: Int?

    /// The settings of a bluetoothd whose adapter shows `modalias`, configured by `mainConfiguration`
    /// (the text of main.conf, nil when unreadable).
    init(modalias: String?, mainConfiguration: String?) {
        version = modalias.flatMap(Self.version(fromModalias:))
        gattChannels = mainConfiguration.flatMap(Self.gattChannels(in:))
    }

    /// The settings of the local bluetoothd, whose adapter shows `modalias`.
    static func local(modalias: String?) -> BlueZDaemonSettings {
        let configuration = FileManager.default.contents(atPath: mainConfigurationPath).map { String(decoding: $0, as: UTF8.self) }
        return BlueZDaemonSettings(modalias: modalias, mainConfiguration: configuration)
    }

    /// The ATT bearers bluetoothd opens to a peer that supports EATT; nil when unknown (an
    /// unknown version and no setting).
    var attBearers: Int? {
        if let gattChannels { return gattChannels }
        return version.map { $0 < Self.singleBearerRelease ? Self.earlierDefaultBearers : 1 }
    }

    /// What to tell the user when bluetoothd may spread a session over several ATT bearers, nil
    /// when it keeps to one.
    var severalBearersWarning: String? {
        guard let bearers = attBearers, bearers > 1 else { return nil }
        let daemon = version.map { "bluetoothd \($0)" } ?? "bluetoothd"
        let origin = gattChannels == nil ? "its default" : "set in \(Self.mainConfigurationPath)"
        return "\(daemon) opens \(bearers) ATT bearers (EATT, [GATT] Channels = \(bearers), \(origin)) to a peer that supports them, "
            + "such as another Linux machine with BlueZ 5.66 or older, and does not keep a message's chunks in order across them, "
            + "so sessions with such a peer fail: set Channels = 1 under [GATT] in \(Self.mainConfigurationPath) "
            + "(the default from BlueZ 5.67 on) and restart bluetoothd"
    }

    /// The version in a Device ID modalias `usb:v1D6Bp0246dMMmm` (`MM` major, `mm` minor, hex).
    static func version(fromModalias modalias: String) -> Version? {
        let prefix = "usb:v1D6Bp0246d"
        guard modalias.uppercased().hasPrefix(prefix.uppercased()) else { return nil }
        let digits = modalias.dropFirst(prefix.count)
        guard digits.count == 4, let value = Int(digits, radix: 16) else { return nil }
        return Version(major: value >> 8, minor: value & 0xFF)
    }

    /// [GATT] Channels in the text of main.conf (a GLib key file: `[Group]`, `Key = value`,
    /// `#` comments); nil when it is not set or not a number.
    static func gattChannels(in configuration: String) -> Int? {
        var group = ""
        var channels: Int?
        for line in configuration.split(whereSeparator: \.isNewline) {
            let text = trimmed(line)
            if text.hasPrefix("[") && text.hasSuffix("]") {
                group = String(text.dropFirst().dropLast())
            } else if group == "GATT", !text.hasPrefix("#"), let equals = text.firstIndex(of: "=") {
                guard trimmed(text[..<equals]) == "Channels" else { continue }
                channels = Int(trimmed(text[text.index(after: equals)...]))
            }
        }
        return channels
    }

    private static func trimmed(_ text: Substring) -> Substring {
        guard let first = text.firstIndex(where: { !$0.isWhitespace }),
              let last = text.lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return text[first...last]
    }
}
