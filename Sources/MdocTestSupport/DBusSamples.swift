import MdocDBus

/// D-Bus values the D-Bus tests send: over the wire format alone (MdocDBusTests) and through a
/// dbus-daemon (MdocBlueZTests).
package enum DBusSamples {
    /// A value of every type the BlueZ transport reads or writes, nested as bluetoothd nests them.
    package static let everyType: [DBusValue] = [
        .byte(0xA5), .boolean(true), .boolean(false), .int16(-2), .uint16(517), .int32(-70_000), .uint32(4_000_000_000),
        .int64(-1 << 40), .uint64(1 << 63), .double(0.5), .string("zählt"), .objectPath("/org/bluez/hci0/dev_C0_00_00_00_00_01"),
        .signature("a{sv}"), .bytes([]), .bytes(Array(0...255)), .strings(["read", "notify"]),
        .properties([("UUID", .string("00000001-a123-48ce-896b-4c76973373e6")), ("MTU", .uint16(517)), ("Value", .bytes([1, 0]))]),
        .dictionary(key: "o", value: "a{sa{sv}}", [
            DBusDictionaryEntry(key: .objectPath("/a"), value: .dictionary(key: "s", value: "a{sv}", [
                DBusDictionaryEntry(key: .string("org.bluez.Device1"), value: .properties([("RSSI", .int16(-50))])),
            ])),
        ]),
        .structure([.string("x"), .uint32(1)]), .variant(.variant(.boolean(true))),
    ]
}
