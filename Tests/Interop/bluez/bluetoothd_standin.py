#!/usr/bin/env python3
"""A stand-in bluetoothd for swift-mdoc's tests of the `bluez` transport.

It starts a private dbus-daemon, takes the name org.bluez on it, and implements the parts of
bluetoothd's D-Bus API (BlueZ doc/org.bluez.*.rst) that `mdoc-holder` and `mdoc-reader` use,
with the radio replaced by the `sim` transport (sim_att.py):

- GattManager1.RegisterApplication reads the application's objects (ObjectManager) and serves
  them as a GATT database; LEAdvertisingManager1.RegisterAdvertisement "advertises" each
  service UUID by listening on its sim address. A sim client that connects gets an ATT server
  whose reads, writes and CCCD writes become ReadValue, WriteValue, StartNotify and StopNotify
  calls on the application, and whose PropertiesChanged(Value) signals become notifications.
  When the client goes, the notifications it enabled are stopped, as bluetoothd does: StartNotify
  for every client that enables them, StopNotify when the last one has gone. Each such client is
  a Device1 object while its link is up (Connected true); its Device1.Disconnect ends the link
  and answers once it is down, as bluetoothd's does.
- Adapter1.StartDiscovery finds the services advertised over sim (listening sockets in
  /proc/net/unix) as one Device1 object, whose address stays from session to session like a
  phone's; Device1.Connect connects, exchanges the MTU and discovers the services; the remote
  GattCharacteristic1 objects read, write ("command" or "request"), and turn notifications into
  PropertiesChanged(Value). A program that leaves the bus loses the notifications it started
  (the remote CCCD is written off) while the link stays up, as with bluetoothd, which keeps a
  link until a program disconnects it.

Where the real bluetoothd 5.66 behaves in ways a program must cope with, the stand-in does the
same (checked against it in a VM, scripts/bluez-vm.sh): a written value above 510 octets is
dropped; once a device's services were resolved, its UUIDs are those services, not what it
advertises now, and its services stay after the link ends; during a filtered discovery each
matching advertisement is an RSSI change, and the RSSI goes when the discovery stops. It serves
one ATT bearer, as bluetoothd does with [GATT] Channels = 1 (with more, bluetoothd 5.66 spreads a
message's chunks over several bearers and loses their order; docs/bluez.md).

Usage: bluetoothd_standin.py [--no-adapter] [--powered-off] [--advertising-slots N] [--deny]
                             [--register-delay S] [--sim-namespace NS]

It prints `address <bus address>` once it owns org.bluez, then one line per registration
(`registering application PATH` when it has read the application's objects and is about to
answer RegisterApplication, `registered application PATH`, `unregistered advertisement PATH`,
`abandoned application PATH` when a program left the bus with it still registered). When its standard input closes
(or on SIGTERM/SIGINT) it prints `registrations N`: what is still registered plus what was
abandoned, so a test can tell that a program unregistered everything itself. On SIGUSR1 it
restarts as bluetoothd does under `systemctl restart bluetooth`: it drops every registration,
link and discovery, leaves the bus (releases org.bluez), and owns the name again half a second
later. The failure modes
are those a program must report before starting: no adapter, adapter powered off, advertising
slots exhausted (SupportedInstances 0 and RegisterAdvertisement answering NotPermitted), and a
bus policy that refuses the caller (every call answered org.freedesktop.DBus.Error.AccessDenied).
"""

import argparse
import asyncio
import ctypes
import hashlib
import os
import signal
import socket
import subprocess
import sys

from dbus_fast import Message, MessageType, Variant
from dbus_fast.aio import MessageBus

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sim_att import ATTFailure, AttributeClient, AttributeServer, LocalCharacteristic, announce, sim_address  # noqa: E402

SERVICE = "org.bluez"
ADAPTER_PATH = "/org/bluez/hci0"
ADAPTER_ADDRESS = "5A:00:00:00:00:01"

ADAPTER = "org.bluez.Adapter1"
DEVICE = "org.bluez.Device1"
GATT_MANAGER = "org.bluez.GattManager1"
ADVERTISING_MANAGER = "org.bluez.LEAdvertisingManager1"
GATT_SERVICE = "org.bluez.GattService1"
GATT_CHARACTERISTIC = "org.bluez.GattCharacteristic1"
ADVERTISEMENT = "org.bluez.LEAdvertisement1"
OBJECT_MANAGER = "org.freedesktop.DBus.ObjectManager"
PROPERTIES = "org.freedesktop.DBus.Properties"

# How often discovery looks for new sim advertisers.
DISCOVERY_INTERVAL = 0.05
# The RSSI the stand-in reports for every discovered device (there is no radio).
SIM_RSSI = -42


def error(message, name, text):
    return Message.new_error(message, name, text)


def variant_options(options):
    """{"name": (signature, value)} as a{sv}."""
    return {name: Variant(signature, value) for name, (signature, value) in options.items()}


def unwrap(properties):
    return {name: (value.value if isinstance(value, Variant) else value) for name, value in properties.items()}


class Registration:
    """A GATT application or an advertisement a program registered."""

    def __init__(self, kind, owner, path):
        self.kind = kind
        self.owner = owner
        self.path = path
        self.services = []  # applications: [(uuid, [LocalCharacteristic])]
        self.listeners = []  # advertisements: [(socket, accept task)]


def device_address(namespace):
    """The address of the one remote device the stand-in shows, whatever sim advertisers of the
    namespace advertise (a phone keeps its address from session to session): a static random
    address (Core Vol 6 Part B 1.3.2.1: the two top bits 0b11) derived from the namespace."""
    digest = hashlib.sha256(("mdoc-sim/" + namespace).encode()).digest()
    return ":".join(f"{b:02X}" for b in bytes([digest[0] | 0xC0]) + digest[1:6])


class RemoteDevice:
    """The device found by discovery: the sim advertisers of the namespace, as one device.

    As bluetoothd 5.66 does: its UUIDs are the service UUIDs it advertises until its GATT
    services were resolved over a connection, and from then on those services, even after the
    link ends (GATT cache "always"); the services stay exported then, without their MTU. Its
    RSSI is there only while a discovery reports it.
    """

    def __init__(self, path, address):
        self.path = path
        self.address = address
        self.advertised = set()
        self.rssi = None
        self.resolved_uuids = None
        self.client = None
        self.connected = False
        self.resolved = False
        self.objects = {}  # path -> (interface, properties)
        self.characteristics = {}  # path -> RemoteCharacteristic
        self.notifying = set()
        self.notify_owners = {}  # path of a characteristic in `notifying` -> the bus name that started it

    @property
    def uuids(self):
        return self.resolved_uuids if self.resolved_uuids is not None else sorted(self.advertised)

    def properties(self):
        properties = {
            "Address": Variant("s", self.address), "AddressType": Variant("s", "random"), "Alias": Variant("s", self.address),
            "Adapter": Variant("o", ADAPTER_PATH), "Paired": Variant("b", False), "Trusted": Variant("b", False),
            "Connected": Variant("b", self.connected), "ServicesResolved": Variant("b", self.resolved),
            "UUIDs": Variant("as", self.uuids),
        }
        if self.rssi is not None:
            properties["RSSI"] = Variant("n", self.rssi)
        return properties


class StandInBluetoothd:
    def __init__(self, bus, options):
        self.bus = bus
        self.options = options
        self.namespace = options.sim_namespace if options.sim_namespace is not None else os.environ.get("MDOC_SIM_NAMESPACE", "")
        self.registrations = {}  # (kind, owner, path) -> Registration
        self.abandoned = 0
        self.servers = []  # live AttributeServers
        self.notify_counts = {}  # (owner, path) of a characteristic -> clients notified
        self.devices = {}  # path -> RemoteDevice
        self.centrals = {}  # path -> (AttributeServer, its serving task): the clients of the programs' GATT servers
        self.centrals_connected = 0
        self.discovery_filter = []
        self.discovery = None
        self.tasks = set()

    # MARK: Output

    def report(self, line):
        print(line, flush=True)

    def log(self, line):
        print(line, file=sys.stderr, flush=True)

    # MARK: Objects

    @property
    def active_advertisements(self):
        return sum(1 for key in self.registrations if key[0] == "advertisement")

    def adapter_interfaces(self):
        free = max(0, self.options.advertising_slots - self.active_advertisements)
        return {
            ADAPTER: {
                "Address": Variant("s", ADAPTER_ADDRESS), "AddressType": Variant("s", "public"), "Name": Variant("s", "stand-in"),
                "Alias": Variant("s", "stand-in"), "Powered": Variant("b", not self.options.powered_off),
                "Discovering": Variant("b", self.discovery is not None), "UUIDs": Variant("as", []),
            },
            GATT_MANAGER: {},
            ADVERTISING_MANAGER: {
                "ActiveInstances": Variant("y", self.active_advertisements), "SupportedInstances": Variant("y", free),
                "SupportedIncludes": Variant("as", ["tx-power", "appearance", "local-name"]),
            },
        }

    def managed_objects(self):
        objects = {}
        if not self.options.no_adapter:
            objects[ADAPTER_PATH] = self.adapter_interfaces()
            for device in self.devices.values():
                objects[device.path] = {DEVICE: device.properties()}
                for path, (interface, properties) in device.objects.items():
                    objects[path] = {interface: dict(properties)}
            for path in self.centrals:
                objects[path] = {DEVICE: central_properties(path)}
        return objects

    def interfaces_at(self, path):
        return self.managed_objects().get(path)

    def emit_changed(self, path, interface, changed, invalidated=()):
        self.bus.send(Message.new_signal(path, PROPERTIES, "PropertiesChanged", "sa{sv}as", [interface, changed, list(invalidated)]))

    # MARK: Calls

    def handle(self, message):
        """The bus connection's message handler: our method calls, and the signals we watch."""
        if message.message_type == MessageType.SIGNAL:
            self.handle_signal(message)
            return False
        if message.message_type != MessageType.METHOD_CALL or message.destination not in (SERVICE, self.bus.unique_name):
            return False
        if self.options.deny:
            return error(message, "org.freedesktop.DBus.Error.AccessDenied",
                         "Rejected send message: the bus policy does not let this user talk to org.bluez")
        task = asyncio.get_running_loop().create_task(self.answer(message))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return True

    async def answer(self, message):
        try:
            reply = await self.dispatch(message)
        except DBusReplyError as failure:
            reply = error(message, failure.name, failure.text)
        except Exception as failure:  # a defect of the stand-in: say so to the caller and the log
            self.log(f"stand-in error answering {message.member}: {failure!r}")
            reply = error(message, "org.bluez.Error.Failed", f"stand-in error: {failure}")
        self.bus.send(reply)

    async def dispatch(self, message):
        path, interface, member, body = message.path, message.interface, message.member, message.body
        if interface == OBJECT_MANAGER and member == "GetManagedObjects" and path == "/":
            return Message.new_method_return(message, "a{oa{sa{sv}}}", [self.managed_objects()])
        if interface == PROPERTIES:
            return self.properties_call(message)
        if path == ADAPTER_PATH and not self.options.no_adapter:
            if interface == ADAPTER:
                return await self.adapter_call(message, member, body)
            if self.options.powered_off and interface in (GATT_MANAGER, ADVERTISING_MANAGER):
                raise DBusReplyError("org.bluez.Error.NotReady", "Resource Not Ready")
            if interface == GATT_MANAGER:
                return await self.gatt_manager_call(message, member, body)
            if interface == ADVERTISING_MANAGER:
                return await self.advertising_manager_call(message, member, body)
        if path in self.devices and interface == DEVICE:
            return await self.device_call(message, self.devices[path], member)
        if path in self.centrals and interface == DEVICE:
            return await self.central_call(message, path, member)
        for device in self.devices.values():
            if path in device.characteristics and interface == GATT_CHARACTERISTIC:
                return await self.characteristic_call(message, device, path, member, body)
        if self.interfaces_at(path) is None:
            raise DBusReplyError("org.freedesktop.DBus.Error.UnknownObject", f"no object {path}")
        raise DBusReplyError("org.freedesktop.DBus.Error.UnknownMethod", f"no method {interface}.{member} at {path}")

    def properties_call(self, message):
        interfaces = self.interfaces_at(message.path)
        if interfaces is None:
            raise DBusReplyError("org.freedesktop.DBus.Error.UnknownObject", f"no object {message.path}")
        if message.member == "GetAll":
            return Message.new_method_return(message, "a{sv}", [interfaces.get(message.body[0], {})])
        if message.member == "Get":
            interface, name = message.body
            if name not in interfaces.get(interface, {}):
                raise DBusReplyError("org.freedesktop.DBus.Error.InvalidArgs", f"no property {name} of {interface}")
            return Message.new_method_return(message, "v", [interfaces[interface][name]])
        raise DBusReplyError("org.freedesktop.DBus.Error.PropertyReadOnly", "the stand-in's properties are read-only")

    # MARK: Adapter1 (discovery)

    async def adapter_call(self, message, member, body):
        if member == "SetDiscoveryFilter":
            filter_ = unwrap(body[0])
            self.discovery_filter = [uuid.lower() for uuid in filter_.get("UUIDs", [])]
            return Message.new_method_return(message)
        if self.options.powered_off and member in ("StartDiscovery", "StopDiscovery"):
            raise DBusReplyError("org.bluez.Error.NotReady", "Resource Not Ready")
        if member == "StartDiscovery":
            if self.discovery is None:
                self.discovery = asyncio.get_running_loop().create_task(self.discover())
                self.emit_changed(ADAPTER_PATH, ADAPTER, {"Discovering": Variant("b", True)})
            return Message.new_method_return(message)
        if member == "StopDiscovery":
            if self.discovery is None:
                raise DBusReplyError("org.bluez.Error.Failed", "No discovery started")
            self.discovery.cancel()
            self.discovery = None
            self.emit_changed(ADAPTER_PATH, ADAPTER, {"Discovering": Variant("b", False)})
            # bluetoothd forgets the RSSI of what the discovery found.
            for device in self.devices.values():
                if device.rssi is not None:
                    device.rssi = None
                    self.emit_changed(device.path, DEVICE, {}, ["RSSI"])
            return Message.new_method_return(message)
        raise DBusReplyError("org.freedesktop.DBus.Error.UnknownMethod", f"no method {ADAPTER}.{member}")

    def sim_advertisers(self):
        """The service UUIDs advertised over sim by others: listening abstract sockets named
        `<namespace>mdoc-sim/<uuid>` (unix(7), /proc/net/unix), minus our own listeners."""
        prefix = "@" + self.namespace + "mdoc-sim/"
        ours = {sim_address(uuid, self.namespace) for registration in self.registrations.values()
                for uuid in registration_uuids(registration)}
        found = set()
        with open("/proc/net/unix") as table:
            next(table)
            for line in table:
                fields = line.split()
                if len(fields) >= 8 and fields[3] == "00010000" and fields[7].startswith(prefix) and fields[7][1:] not in ours:
                    found.add(fields[7][len(prefix):].lower())
        return found

    async def discover(self):
        """Every DISCOVERY_INTERVAL, the sim advertisers as the namespace's one device. As
        bluetoothd does during a discovery with a filter, every advertisement that matches it
        is reported as the device's RSSI, changed or not."""
        path = ADAPTER_PATH + "/dev_" + device_address(self.namespace).replace(":", "_")
        while True:
            advertised = self.sim_advertisers()
            matching = {uuid for uuid in advertised if not self.discovery_filter or uuid in self.discovery_filter}
            device = self.devices.get(path)
            if device is not None:
                device.advertised = advertised
            if matching:
                if device is None:
                    device = RemoteDevice(path, device_address(self.namespace))
                    device.advertised = advertised
                    device.rssi = SIM_RSSI
                    self.devices[path] = device
                    self.bus.send(Message.new_signal("/", OBJECT_MANAGER, "InterfacesAdded", "oa{sa{sv}}",
                                                     [path, {DEVICE: device.properties()}]))
                else:
                    device.rssi = SIM_RSSI
                    self.emit_changed(path, DEVICE, {"RSSI": Variant("n", SIM_RSSI)})
            await asyncio.sleep(DISCOVERY_INTERVAL)

    # MARK: Device1 and the remote characteristics

    async def device_call(self, message, device, member):
        if member == "Connect":
            if device.connected:
                return Message.new_method_return(message)
            await self.connect(device)
            return Message.new_method_return(message)
        if member == "Disconnect":
            if device.client is not None:
                device.client.close()
                self.link_ended(device)
            return Message.new_method_return(message)
        raise DBusReplyError("org.freedesktop.DBus.Error.UnknownMethod", f"no method {DEVICE}.{member}")

    async def connect(self, device):
        """Connects to a sim advertiser of the device (one the discovery filter names, if any),
        exchanges the MTU and discovers its services, which replace those known from before."""
        candidates = sorted(device.advertised & set(self.discovery_filter)) or sorted(device.advertised)
        if not candidates:
            raise DBusReplyError("org.bluez.Error.Failed", "le-connection-abort-by-local (the device is not advertising)")
        address = sim_address(candidates[0], self.namespace)
        try:
            device.client = await AttributeClient.connect(
                address, lambda handle, value: self.notified(device, handle, value), lambda: self.link_ended(device))
        except OSError as failure:
            raise DBusReplyError("org.bluez.Error.Failed", f"le-connection-abort-by-local ({failure.strerror})") from None
        device.connected = True
        self.emit_changed(device.path, DEVICE, {"Connected": Variant("b", True)})
        try:
            mtu = await device.client.exchange_mtu()
            services = await device.client.discover()
        except ATTFailure as failure:
            device.client.close()
            self.link_ended(device)
            raise DBusReplyError("org.bluez.Error.Failed", f"GATT discovery failed: {failure}") from None
        for path in sorted(device.objects, reverse=True):
            self.bus.send(Message.new_signal("/", OBJECT_MANAGER, "InterfacesRemoved", "oas", [path, [device.objects[path][0]]]))
        device.objects.clear()
        device.characteristics.clear()
        for service_uuid, first, _, characteristics in services:
            service_path = f"{device.path}/service{first:04x}"
            device.objects[service_path] = (GATT_SERVICE, {
                "UUID": Variant("s", service_uuid), "Primary": Variant("b", True), "Device": Variant("o", device.path),
            })
            for characteristic in characteristics:
                path = f"{service_path}/char{characteristic.declaration_handle:04x}"
                device.characteristics[path] = characteristic
                device.objects[path] = (GATT_CHARACTERISTIC, {
                    "UUID": Variant("s", characteristic.uuid), "Service": Variant("o", service_path),
                    "Flags": Variant("as", characteristic.flags), "Notifying": Variant("b", False),
                    "MTU": Variant("q", mtu), "Value": Variant("ay", b""),
                })
        device.resolved = True
        device.resolved_uuids = sorted(service_uuid for service_uuid, _, _, _ in services)
        self.emit_changed(device.path, DEVICE, {"ServicesResolved": Variant("b", True), "UUIDs": Variant("as", device.uuids)})
        self.log(f"connected {device.path} mtu {mtu} services {len(services)}")

    def link_ended(self, device):
        """What bluetoothd does when a link ends: the services stay (GATT cache), without MTU."""
        if not device.connected:
            return
        device.connected = False
        device.resolved = False
        device.client = None
        device.notifying.clear()
        device.notify_owners.clear()
        for _, properties in device.objects.values():
            properties.pop("MTU", None)
        self.emit_changed(device.path, DEVICE, {"Connected": Variant("b", False), "ServicesResolved": Variant("b", False)})
        self.log(f"disconnected {device.path}")

    def notified(self, device, handle, value):
        for path, characteristic in device.characteristics.items():
            if characteristic.value_handle == handle and path in device.notifying:
                self.emit_changed(path, GATT_CHARACTERISTIC, {"Value": Variant("ay", value)})

    async def characteristic_call(self, message, device, path, member, body):
        characteristic = device.characteristics[path]
        client = device.client
        if client is None:
            raise DBusReplyError("org.bluez.Error.NotConnected", "Not Connected")
        try:
            if member == "ReadValue":
                if "read" not in characteristic.flags:
                    raise DBusReplyError("org.bluez.Error.NotPermitted", "Read not permitted")
                return Message.new_method_return(message, "ay", [await client.read(characteristic.value_handle)])
            if member == "WriteValue":
                value, options = bytes(body[0]), unwrap(body[1])
                kind = options.get("type") or ("request" if "write" in characteristic.flags else "command")
                await client.write(characteristic.value_handle, value, with_response=kind != "command")
                return Message.new_method_return(message)
            if member in ("StartNotify", "StopNotify"):
                if not characteristic.cccd_handle:
                    raise DBusReplyError("org.bluez.Error.NotSupported", "Notify not supported")
                await self.set_notifying(device, path, member == "StartNotify", message.sender)
                return Message.new_method_return(message)
        except ATTFailure as failure:
            raise DBusReplyError("org.bluez.Error.Failed", f"ATT: {failure}") from None
        raise DBusReplyError("org.freedesktop.DBus.Error.UnknownMethod", f"no method {GATT_CHARACTERISTIC}.{member}")

    async def set_notifying(self, device, path, enable, owner):
        """Writes the remote CCCD of the characteristic at `path` on or off, for `owner`."""
        if (path in device.notifying) == enable:
            return
        characteristic = device.characteristics[path]
        await device.client.write(characteristic.cccd_handle, b"\x01\x00" if enable else b"\x00\x00", with_response=True)
        if enable:
            device.notifying.add(path)
            device.notify_owners[path] = owner
        else:
            device.notifying.discard(path)
            device.notify_owners.pop(path, None)
        self.emit_changed(path, GATT_CHARACTERISTIC, {"Notifying": Variant("b", enable)})

    async def owner_left(self, owner):
        """A program left the bus: the notifications it started stop; its links stay up."""
        for device in list(self.devices.values()):
            for path in [path for path, started_by in device.notify_owners.items() if started_by == owner]:
                if device.client is None:
                    break
                try:
                    await self.set_notifying(device, path, False, owner)
                except ATTFailure as failure:
                    self.log(f"stopping the notifications of {path} failed: {failure}")
                self.log(f"notifications of {path} stopped: {owner} left the bus")

    # MARK: Device1 of the clients of the programs' GATT servers

    async def central_call(self, message, path, member):
        if member == "Disconnect":
            server, serving = self.centrals[path]
            server.close()
            # Answered once the link is down, as bluetoothd answers.
            await asyncio.wait({serving})
            self.report(f"disconnected client {path}")
            return Message.new_method_return(message)
        raise DBusReplyError("org.freedesktop.DBus.Error.UnknownMethod", f"no method {DEVICE}.{member} at {path}")

    # MARK: GattManager1 and LEAdvertisingManager1 (the programs' own GATT servers)

    async def gatt_manager_call(self, message, member, body):
        owner, path = message.sender, body[0] if body else ""
        key = ("application", owner, path)
        if member == "RegisterApplication":
            if key in self.registrations:
                raise DBusReplyError("org.bluez.Error.AlreadyExists", "Already Exists")
            reply = await self.call(owner, path, OBJECT_MANAGER, "GetManagedObjects", "", [])
            if reply is None:
                raise DBusReplyError("org.bluez.Error.Failed", "Failed to read the application's objects")
            registration = Registration("application", owner, path)
            objects = reply[0]
            for service_path in sorted(p for p, interfaces in objects.items() if GATT_SERVICE in interfaces):
                uuid = str(objects[service_path][GATT_SERVICE]["UUID"].value).lower()
                characteristics = [LocalCharacteristic(owner, p, interfaces[GATT_CHARACTERISTIC])
                                   for p, interfaces in sorted(objects.items())
                                   if GATT_CHARACTERISTIC in interfaces
                                   and interfaces[GATT_CHARACTERISTIC].get("Service", Variant("o", "/")).value == service_path]
                registration.services.append((uuid, characteristics))
            if not registration.services:
                raise DBusReplyError("org.bluez.Error.InvalidArguments", "No GATT service in the application")
            self.report(f"registering application {path}")
            # A slow bluetoothd: the program's other calls are answered meanwhile.
            await asyncio.sleep(self.options.register_delay)
            self.registrations[key] = registration
            self.report(f"registered application {path}")
            return Message.new_method_return(message)
        if member == "UnregisterApplication":
            if self.registrations.pop(key, None) is None:
                raise DBusReplyError("org.bluez.Error.DoesNotExist", "Does Not Exist")
            self.report(f"unregistered application {path}")
            return Message.new_method_return(message)
        raise DBusReplyError("org.freedesktop.DBus.Error.UnknownMethod", f"no method {GATT_MANAGER}.{member}")

    async def advertising_manager_call(self, message, member, body):
        owner, path = message.sender, body[0] if body else ""
        key = ("advertisement", owner, path)
        if member == "RegisterAdvertisement":
            if key in self.registrations:
                raise DBusReplyError("org.bluez.Error.AlreadyExists", "Already Exists")
            if self.active_advertisements >= self.options.advertising_slots:
                raise DBusReplyError("org.bluez.Error.NotPermitted", "Maximum advertisements reached")
            reply = await self.call(owner, path, PROPERTIES, "GetAll", "s", [ADVERTISEMENT])
            if reply is None:
                raise DBusReplyError("org.bluez.Error.Failed", "Failed to read the advertisement")
            advertisement = unwrap(reply[0])
            registration = Registration("advertisement", owner, path)
            for uuid in advertisement.get("ServiceUUIDs", []):
                listener = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
                listener.setblocking(False)
                try:
                    listener.bind("\0" + sim_address(uuid.lower(), self.namespace))
                    listener.listen(4)
                except OSError as failure:
                    listener.close()
                    self.close_listeners(registration)
                    raise DBusReplyError("org.bluez.Error.Failed", f"cannot advertise {uuid}: {failure.strerror}") from None
                accepting = asyncio.get_running_loop().create_task(self.accept(listener, uuid.lower()))
                registration.listeners.append((listener, accepting, uuid.lower()))
                announce(sim_address(uuid.lower(), self.namespace), self.namespace)
            self.registrations[key] = registration
            self.report(f"registered advertisement {path}")
            return Message.new_method_return(message)
        if member == "UnregisterAdvertisement":
            registration = self.registrations.pop(key, None)
            if registration is None:
                raise DBusReplyError("org.bluez.Error.DoesNotExist", "Does Not Exist")
            self.close_listeners(registration)
            self.report(f"unregistered advertisement {path}")
            return Message.new_method_return(message)
        raise DBusReplyError("org.freedesktop.DBus.Error.UnknownMethod", f"no method {ADVERTISING_MANAGER}.{member}")

    def close_listeners(self, registration):
        for listener, accepting, _ in registration.listeners:
            accepting.cancel()
            listener.close()
        registration.listeners.clear()

    async def accept(self, listener, uuid):
        loop = asyncio.get_running_loop()
        while True:
            connection, _ = await loop.sock_accept(listener)
            connection.setblocking(False)
            self.centrals_connected += 1
            number = self.centrals_connected
            services = [service for registration in self.registrations.values() if registration.kind == "application"
                        for service in registration.services]
            device_path = f"{ADAPTER_PATH}/dev_5A_00_00_00_{number // 256:02X}_{number % 256:02X}"
            server = AttributeServer(connection, services, self, device_path, self.log)
            self.servers.append(server)
            self.bus.send(Message.new_signal("/", OBJECT_MANAGER, "InterfacesAdded", "oa{sa{sv}}",
                                             [device_path, {DEVICE: central_properties(device_path)}]))
            self.log(f"sim client connected to {uuid} as {device_path}")
            task = loop.create_task(self.serve(server))
            self.centrals[device_path] = (server, task)
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def serve(self, server):
        try:
            await server.run()
        finally:
            self.servers.remove(server)
            if self.centrals.pop(server.device_path, None) is not None:
                self.emit_changed(server.device_path, DEVICE, {"Connected": Variant("b", False)})
                self.bus.send(Message.new_signal("/", OBJECT_MANAGER, "InterfacesRemoved", "oas", [server.device_path, [DEVICE]]))

    async def call(self, owner, path, interface, member, signature, body):
        """A call into a program's objects; its reply's body, or None after logging an error."""
        body = [variant_options(item) if isinstance(item, dict) else item for item in body]
        reply = await self.bus.call(Message(destination=owner, path=path, interface=interface, member=member,
                                            signature=signature, body=body))
        if reply.message_type == MessageType.ERROR:
            self.log(f"{member} on {path} failed: {reply.error_name} {reply.body}")
            return None
        return reply.body

    # MARK: Signals

    def handle_signal(self, message):
        if message.interface == PROPERTIES and message.member == "PropertiesChanged" and len(message.body) >= 2 \
                and message.body[0] == GATT_CHARACTERISTIC and "Value" in message.body[1]:
            value = bytes(message.body[1]["Value"].value)
            for server in self.servers:
                for characteristic in list(server.notifying):
                    if characteristic.owner == message.sender and characteristic.path == message.path:
                        server.notify(characteristic, value)
        elif message.interface == "org.freedesktop.DBus" and message.member == "NameOwnerChanged" and message.body[2] == "":
            gone = message.body[0]
            task = asyncio.get_running_loop().create_task(self.owner_left(gone))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
            for key in [key for key in self.registrations if key[1] == gone]:
                registration = self.registrations.pop(key)
                self.close_listeners(registration)
                self.abandoned += 1
                self.report(f"abandoned {registration.kind} {registration.path}")

    async def restart(self):
        """As bluetoothd stopping and starting again: its registrations, links and discovery go,
        it leaves the bus, and a moment later owns org.bluez again with nothing registered."""
        for registration in self.registrations.values():
            self.close_listeners(registration)
        for device in self.devices.values():
            if device.client is not None:
                device.client.close()
        self.registrations.clear()
        self.devices.clear()
        if self.discovery is not None:
            self.discovery.cancel()
        self.discovery = None
        self.discovery_filter = []
        await self.bus.release_name(SERVICE)
        self.log("restart: left the bus")
        await asyncio.sleep(0.5)
        await self.bus.request_name(SERVICE)
        self.log("restart: owns org.bluez again")

    def close(self):
        for registration in self.registrations.values():
            self.close_listeners(registration)
        for device in self.devices.values():
            if device.client is not None:
                device.client.close()
        self.report(f"registrations {len(self.registrations) + self.abandoned}")


class DBusReplyError(Exception):
    def __init__(self, name, text):
        super().__init__(f"{name}: {text}")
        self.name = name
        self.text = text


def central_properties(path):
    """The Device1 properties of a client connected to a program's GATT server."""
    address = path.rsplit("dev_", 1)[-1].replace("_", ":")
    return {
        "Address": Variant("s", address), "AddressType": Variant("s", "random"), "Alias": Variant("s", address),
        "Adapter": Variant("o", ADAPTER_PATH), "Paired": Variant("b", False), "Trusted": Variant("b", False),
        "Connected": Variant("b", True), "ServicesResolved": Variant("b", True), "UUIDs": Variant("as", []),
    }


def registration_uuids(registration):
    return [uuid for _, _, uuid in registration.listeners]


def start_bus():
    """A private dbus-daemon that dies with this process (prctl PR_SET_PDEATHSIG)."""
    libc = ctypes.CDLL(None, use_errno=True)

    def die_with_parent():
        libc.prctl(1, signal.SIGKILL)

    daemon = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, preexec_fn=die_with_parent)
    address = daemon.stdout.readline().decode().strip()
    if not address.startswith("unix:"):
        daemon.kill()
        raise SystemExit("dbus-daemon did not start (apt-get install dbus-daemon)")
    return daemon, address


async def main(options):
    daemon, address = start_bus()
    bus = await MessageBus(bus_address=address).connect()
    standin = StandInBluetoothd(bus, options)
    bus.add_message_handler(standin.handle)
    for rule in ("type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'",
                 "type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged'"):
        await bus.call(Message(destination="org.freedesktop.DBus", path="/org/freedesktop/DBus",
                               interface="org.freedesktop.DBus", member="AddMatch", signature="s", body=[rule]))
    await bus.request_name(SERVICE)
    print(f"address {address}", flush=True)

    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    restarts = set()

    def restart():
        task = loop.create_task(standin.restart())
        restarts.add(task)
        task.add_done_callback(restarts.discard)

    # SIGUSR1: restart, as `systemctl restart bluetooth` would.
    loop.add_signal_handler(signal.SIGUSR1, restart)

    def read_input():
        if not os.read(sys.stdin.fileno(), 4096):
            loop.remove_reader(sys.stdin.fileno())
            stop.set()

    loop.add_reader(sys.stdin.fileno(), read_input)
    await stop.wait()
    # Let calls already on the bus (a program's last unregistrations) arrive before the count.
    await asyncio.sleep(0.2)
    standin.close()
    bus.disconnect()
    daemon.kill()
    daemon.wait()


def parse(arguments):
    parser = argparse.ArgumentParser(description="A stand-in bluetoothd bridging BlueZ's D-Bus API to the sim transport.")
    parser.add_argument("--no-adapter", action="store_true", help="list no adapter (a machine without Bluetooth)")
    parser.add_argument("--powered-off", action="store_true", help="the adapter is powered off")
    parser.add_argument("--advertising-slots", type=int, default=4, help="advertising instances the adapter supports")
    parser.add_argument("--deny", action="store_true", help="answer every call AccessDenied, as a bus policy that refuses the user")
    parser.add_argument("--sim-namespace", help="the sim namespace (default: $MDOC_SIM_NAMESPACE)")
    parser.add_argument("--register-delay", type=float, default=0,
                        help="seconds RegisterApplication takes after reading the application, other calls answered meanwhile")
    return parser.parse_args(arguments)


if __name__ == "__main__":
    asyncio.run(main(parse(sys.argv[1:])))
