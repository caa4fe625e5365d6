import MdocBLE
import MdocDBus

/// The names of bluetoothd's D-Bus API that the BlueZ transport uses (BlueZ doc/org.bluez.*.rst,
/// and the D-Bus Specification's standard interfaces).
enum BlueZInterface {
    /// bluetoothd's well-known bus name.
    static let service = "org.bluez"
    /// An adapter (`/org/bluez/hciN`): power, discovery.
    static let adapter = "org.bluez.Adapter1"
    /// A remote device found by discovery: connect, disconnect, services resolved.
    static let device = "org.bluez.Device1"
    /// Registers GATT applications on an adapter.
    static let gattManager = "org.bluez.GattManager1"
    /// Registers advertisements on an adapter.
    static let advertisingManager = "org.bluez.LEAdvertisingManager1"
    /// A GATT service, local (ours) or remote (the peer's).
    static let gattService = "org.bluez.GattService1"
    /// A GATT characteristic, local or remote.
    static let gattCharacteristic = "org.bluez.GattCharacteristic1"
    /// An advertisement object we export.
    static let advertisement = "org.bluez.LEAdvertisement1"
    /// org.freedesktop.DBus.ObjectManager: GetManagedObjects, InterfacesAdded/Removed.
    static let objectManager = "org.freedesktop.DBus.ObjectManager"
    /// org.freedesktop.DBus.Properties: Get, GetAll, Set, PropertiesChanged.
    static let properties = "org.freedesktop.DBus.Properties"
    /// The bus itself, for NameHasOwner.
    static let bus = "org.freedesktop.DBus"
    /// The bus's object path.
    static let busPath = "/org/freedesktop/DBus"

    /// bluetoothd's error for a request it refuses, such as a fifth advertisement.
    static let notPermittedError = "org.bluez.Error.NotPermitted"
    /// bluetoothd's error for an adapter that is not powered.
    static let notReadyError = "org.bluez.Error.NotReady"

    /// The bus's NameOwnerChanged signals about bluetoothd's name (D-Bus Specification,
    /// "org.freedesktop.DBus.NameOwnerChanged"): bluetoothd leaving the bus (it stopped or is
    /// restarting) ends every registration and link it held for the programs.
    static let bluetoothdOwnerChanged = DBusMatchRule(sender: bus, interface: bus, member: "NameOwnerChanged", arg0: service)

    /// Whether `signal`, one of ``bluetoothdOwnerChanged``, says that nobody owns bluetoothd's
    /// name any more (its new owner is empty).
    static func saysBluetoothdLeft(_ signal: DBusConnection.Delivery) -> Bool {
        signal.member == "NameOwnerChanged" && signal.arguments.count == 3 && signal.arguments[0].stringValue == service
            && signal.arguments[2].stringValue == ""
    }

    /// The error of a call or watch on D-Bus that failed while doing `what`: bluetoothd gone from
    /// the bus (nobody owns its name, so it cannot be called or heard) says so, as
    /// ``bluetoothdLeftReason``; any other failure is named with `what`.
    static func failure(_ error: DBusError, _ code: BLEError.Code, _ what: String) -> BLEError {
        error.name == DBusError.serviceUnknownName
            ? BLEError(code, bluetoothdLeftReason)
            : BLEError(code, "\(what) on D-Bus failed: \(error)")
    }

    /// Why a session ended when bluetoothd left the bus.
    static let bluetoothdLeftReason = "bluetoothd left the D-Bus system bus (it stopped or is restarting): the session's link through it is gone"
}
