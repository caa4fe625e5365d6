import Foundation
@testable import MdocBLE
@testable import MdocBlueZ
import Testing

/// Whether bluetoothd may carry a session over several ATT bearers (EATT), from its Device ID
/// and main.conf as Debian 12 and later releases ship them.
@Suite("bluetoothd's version and ATT bearers")
struct BlueZDaemonSettingsTests {
    /// The [GATT] group of Debian 12's main.conf (bluez 5.66), abridged.
    static let debianConfiguration = """
        [General]
        #Channels = 9

        [GATT]
        # GATT attribute cache.
        #Cache = always

        # Number of ATT channels
        # Possible values: 1-5 (1 disables EATT)
        # Default to 3
        #Channels = 3

        [AVDTP]
        """

    @Test("the version comes from BlueZ's own Device ID only", arguments: [
        ("usb:v1D6Bp0246d0542", "5.66"), ("usb:v1d6bp0246d0543", "5.67"), ("usb:v1D6Bp0246d054F", "5.79"),
        ("usb:v05ACp8290d0100", nil), ("usb:v1D6Bp0246d542", nil), ("bluetooth:v1D6Bp0246d0542", nil), ("", nil),
    ] as [(String, String?)])
    func version(modalias: String, expected: String?) {
        #expect(BlueZDaemonSettings.version(fromModalias: modalias)?.description == expected)
    }

    @Test("Channels is read from the GATT group only, commented lines do not count")
    func channels() {
        #expect(BlueZDaemonSettings.gattChannels(in: Self.debianConfiguration) == nil)
        let set = Self.debianConfiguration.replacingOccurrences(of: "#Channels = 3", with: "  Channels =1 ")
        #expect(BlueZDaemonSettings.gattChannels(in: set) == 1)
        #expect(BlueZDaemonSettings.gattChannels(in: "[GATT]\nChannels = 5\n[General]\nChannels = 1") == 5)
        #expect(BlueZDaemonSettings.gattChannels(in: "[GATT]\nChannels = many") == nil)
        #expect(BlueZDaemonSettings.gattChannels(in: "[GATTX]\nChannels = 2") == nil)
    }

    @Test("BlueZ 5.66 as shipped opens 3 bearers and is warned about; Channels = 1 or 5.67 are not")
    func warning() throws {
        let shipped = BlueZDaemonSettings(modalias: "usb:v1D6Bp0246d0542", mainConfiguration: Self.debianConfiguration)
        #expect(shipped.attBearers == 3)
        let warning = try #require(shipped.severalBearersWarning)
        #expect(warning.hasPrefix("bluetoothd 5.66 opens 3 ATT bearers (EATT, [GATT] Channels = 3, its default)"))
        #expect(warning.contains("set Channels = 1 under [GATT] in /etc/bluetooth/main.conf"))

        let single = BlueZDaemonSettings(modalias: "usb:v1D6Bp0246d0542",
                                         mainConfiguration: "[GATT]\nChannels = 1\n")
        #expect(single.attBearers == 1)
        #expect(single.severalBearersWarning == nil)
        let newer = BlueZDaemonSettings(modalias: "usb:v1D6Bp0246d0543", mainConfiguration: nil)
        #expect(newer.attBearers == 1)
        #expect(newer.severalBearersWarning == nil)
        let configured = BlueZDaemonSettings(modalias: "usb:v1D6Bp0246d0545", mainConfiguration: "[GATT]\nChannels = 2\n")
        #expect(configured.severalBearersWarning?.contains("Channels = 2, set in /etc/bluetooth/main.conf") == true)
        let unknown = BlueZDaemonSettings(modalias: "usb:v0000p0000d0000", mainConfiguration: nil)
        #expect(unknown.attBearers == nil)
        #expect(unknown.severalBearersWarning == nil)
    }
}
