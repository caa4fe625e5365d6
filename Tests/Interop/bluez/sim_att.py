"""ATT over the `sim` bearer, for the stand-in bluetoothd (bluetoothd_standin.py).

The `sim` transport of swift-mdoc carries one ATT PDU per AF_UNIX SOCK_SEQPACKET datagram on an
abstract socket named `<MDOC_SIM_NAMESPACE>mdoc-sim/<lowercase service UUID>` (docs/architecture.md
section 4). This module is what bluetoothd does on a real link, written independently of the
Swift code it is tested against:

- `AttributeServer`: a GATT server built from the objects of a registered GATT application
  (Core Specification Vol 3 Part G 3: service, characteristic declaration, value, CCCD), which
  answers a remote client's ATT requests by calling the application's GattCharacteristic1
  methods, as bluetoothd 5.66 does: writes granted by either write flag, WriteValue options
  `device`, `link` and `mtu`, and a written value above 510 octets refused (dropped without a
  word for a Write Command).
- `AttributeClient`: the GATT client bluetoothd runs after Device1.Connect: MTU exchange,
  discovery of every service, characteristic and CCCD, reads, writes and notifications.
"""

import asyncio
import socket
import struct
import uuid as uuidlib

# ATT opcodes (Core Specification Vol 3 Part F 3.4.8).
ERROR_RSP = 0x01
EXCHANGE_MTU_REQ, EXCHANGE_MTU_RSP = 0x02, 0x03
FIND_INFORMATION_REQ, FIND_INFORMATION_RSP = 0x04, 0x05
FIND_BY_TYPE_VALUE_REQ, FIND_BY_TYPE_VALUE_RSP = 0x06, 0x07
READ_BY_TYPE_REQ, READ_BY_TYPE_RSP = 0x08, 0x09
READ_REQ, READ_RSP = 0x0A, 0x0B
READ_BLOB_REQ, READ_BLOB_RSP = 0x0C, 0x0D
READ_BY_GROUP_TYPE_REQ, READ_BY_GROUP_TYPE_RSP = 0x10, 0x11
WRITE_REQ, WRITE_RSP = 0x12, 0x13
HANDLE_VALUE_NTF = 0x1B
HANDLE_VALUE_IND, HANDLE_VALUE_CFM = 0x1D, 0x1E
WRITE_CMD = 0x52

# ATT error codes (Vol 3 Part F 3.4.1.1).
INVALID_HANDLE = 0x01
READ_NOT_PERMITTED = 0x02
WRITE_NOT_PERMITTED = 0x03
INVALID_PDU = 0x04
REQUEST_NOT_SUPPORTED = 0x06
INVALID_OFFSET = 0x07
INVALID_ATTRIBUTE_VALUE_LENGTH = 0x0D
ATTRIBUTE_NOT_FOUND = 0x0A
UNLIKELY_ERROR = 0x0E

# GATT attribute types (Assigned Numbers 3.5, 3.7).
PRIMARY_SERVICE = 0x2800
CHARACTERISTIC = 0x2803
CLIENT_CHARACTERISTIC_CONFIGURATION = 0x2902

# Characteristic properties (Vol 3 Part G 3.3.1.1) and BlueZ's flag names for them.
PROPERTY_FLAGS = {"read": 0x02, "write-without-response": 0x04, "write": 0x08, "notify": 0x10, "indicate": 0x20}

GATT_CHARACTERISTIC_INTERFACE = "org.bluez.GattCharacteristic1"

DEFAULT_MTU = 23
# bluetoothd's own receive MTU for LE ATT (BlueZ src/shared/att.h BT_ATT_MAX_LE_MTU).
LOCAL_MTU = 517
MAXIMUM_PDU = 517
# The largest value bluetoothd 5.63 to 5.68 take in a write: 512 octets minus the 2-octet handle,
# which their length check counts (src/shared/gatt-server.c check_length, fixed in 5.69).
MAXIMUM_WRITTEN_VALUE = 510
# How long a request may wait for its response (ATT's transaction timeout, Vol 3 Part F 3.3.3).
TRANSACTION_TIMEOUT = 30.0

BLUETOOTH_BASE = uuidlib.UUID("00000000-0000-1000-8000-00805f9b34fb")


def sim_address(service_uuid, namespace):
    """The abstract socket name of the sim transport for `service_uuid` (without the NUL)."""
    return namespace + "mdoc-sim/" + str(service_uuid).lower()


def announce(address, namespace):
    """Tells the sim scanners listening now that `address` is advertised, as swift-mdoc's own
    advertisers do: one datagram holding the address to each listener named
    `<namespace>mdoc-sim-scan/...` in /proc/net/unix, without waiting; a scanner that is gone or
    busy is skipped. A client of swift-mdoc waiting for an advertiser waits for this."""
    prefix = "@" + namespace + "mdoc-sim-scan/"
    with open("/proc/net/unix") as table:
        lines = table.read().splitlines()[1:]
    for line in lines:
        # Num RefCount Protocol Flags Type St Inode Path; Flags 00010000 marks a listener.
        fields = line.split()
        if len(fields) < 8 or fields[3] != "00010000" or not fields[7].startswith(prefix):
            continue
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        sock.setblocking(False)
        try:
            sock.connect("\0" + fields[7][1:])
            sock.send(address.encode())
        except OSError:
            pass
        finally:
            sock.close()


def uuid_bytes(text):
    """A UUID as ATT carries it: 2 octets when it is a 16-bit Bluetooth UUID, else 16, little-endian."""
    value = uuidlib.UUID(text)
    if value.bytes[4:] == BLUETOOTH_BASE.bytes[4:] and value.bytes[:2] == b"\x00\x00":
        return value.bytes[2:4][::-1]
    return value.bytes[::-1]


def uuid_text(raw):
    """The 128-bit string of an ATT UUID (2 or 16 octets, little-endian)."""
    if len(raw) == 2:
        short = struct.unpack("<H", raw)[0]
        return str(uuidlib.UUID(int=BLUETOOTH_BASE.int | (short << 96)))
    return str(uuidlib.UUID(bytes=bytes(raw[::-1])))


def error_response(request, handle, code):
    return struct.pack("<BBHB", ERROR_RSP, request, handle, code)


class ATTFailure(Exception):
    """An ATT Error Response to one of our requests, or a link that ended."""


class Attribute:
    """One attribute of the server: handle, 16-bit or 128-bit type, and what it stands for."""

    def __init__(self, handle, type_bytes, value=b"", characteristic=None, role="static"):
        self.handle = handle
        self.type_bytes = type_bytes
        self.value = value
        self.characteristic = characteristic
        self.role = role  # "service", "declaration", "value" or "cccd"
        self.group_end = handle


class LocalCharacteristic:
    """A characteristic of a registered application: its object, flags and handles."""

    def __init__(self, owner, path, properties):
        self.owner = owner
        self.path = path
        self.uuid = str(properties["UUID"].value).lower()
        self.flags = list(properties.get("Flags").value if "Flags" in properties else [])
        self.value_handle = 0
        self.cccd_handle = 0

    @property
    def property_bits(self):
        bits = 0
        for flag in self.flags:
            bits |= PROPERTY_FLAGS.get(flag, 0)
        return bits


class AttributeServer:
    """The GATT database of the registered applications, served to one sim connection.

    `application.call(owner, path, interface, member, signature, body)` is a D-Bus call into the
    application's process that returns the reply's body, or None when it answered an error;
    dictionaries in `body` hold (signature, value) pairs. `application.notify_counts` maps
    (owner, path) of a characteristic to how many clients enabled its notifications, shared by
    every connection. The owner of the application passes its characteristics' Value changes to
    ``notify(characteristic, value)``.
    """

    def __init__(self, sock, services, application, device_path, log):
        self.sock = sock
        self.application = application
        self.device_path = device_path
        self.log = log
        self.mtu = DEFAULT_MTU
        self.attributes = []
        self.notifying = {}
        self.outgoing = asyncio.Queue()
        for service_uuid, characteristics in services:
            self._add_service(service_uuid, characteristics)

    def _add_service(self, service_uuid, characteristics):
        service = Attribute(len(self.attributes) + 1, struct.pack("<H", PRIMARY_SERVICE), uuid_bytes(service_uuid), role="service")
        self.attributes.append(service)
        for characteristic in characteristics:
            declaration_handle = len(self.attributes) + 1
            characteristic.value_handle = declaration_handle + 1
            declaration = struct.pack("<BH", characteristic.property_bits, characteristic.value_handle) + uuid_bytes(characteristic.uuid)
            self.attributes.append(Attribute(declaration_handle, struct.pack("<H", CHARACTERISTIC), declaration, characteristic, "declaration"))
            self.attributes.append(Attribute(characteristic.value_handle, uuid_bytes(characteristic.uuid), b"", characteristic, "value"))
            if characteristic.property_bits & (PROPERTY_FLAGS["notify"] | PROPERTY_FLAGS["indicate"]):
                characteristic.cccd_handle = len(self.attributes) + 1
                self.attributes.append(Attribute(characteristic.cccd_handle, struct.pack("<H", CLIENT_CHARACTERISTIC_CONFIGURATION),
                                                 b"\x00\x00", characteristic, "cccd"))
        service.group_end = len(self.attributes)

    def _in_range(self, start, end):
        return [attribute for attribute in self.attributes if start <= attribute.handle <= end]

    def close(self):
        """Ends the link from the server's side: ``run()`` then ends as when the client goes."""
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def _attribute(self, handle):
        if 1 <= handle <= len(self.attributes):
            return self.attributes[handle - 1]
        return None

    async def run(self):
        """Answers requests until the client goes; then does what bluetoothd does when a link
        drops: stops the notifications the client had enabled."""
        loop = asyncio.get_running_loop()
        writer = loop.create_task(self._write_out())
        try:
            while True:
                pdu = await loop.sock_recv(self.sock, MAXIMUM_PDU)
                if not pdu:
                    break
                response = await self._answer(pdu)
                if response:
                    self.outgoing.put_nowait(response)
        except (ConnectionError, OSError):
            pass
        finally:
            writer.cancel()
            self.sock.close()
            for characteristic in list(self.notifying):
                await self._set_notifying(characteristic, False)
            self.log(f"link closed {self.device_path}")

    async def _write_out(self):
        """Sends responses and notifications in the order they were made; a datagram socket
        whose peer is slow blocks here rather than dropping one."""
        loop = asyncio.get_running_loop()
        try:
            while True:
                await loop.sock_sendall(self.sock, await self.outgoing.get())
        except OSError:
            pass

    def notify(self, characteristic, value):
        """Sends `value` as a notification of `characteristic` when the client enabled it."""
        if self.notifying.get(characteristic):
            self.outgoing.put_nowait(struct.pack("<BH", HANDLE_VALUE_NTF, characteristic.value_handle) + bytes(value[: self.mtu - 3]))

    async def _answer(self, pdu):
        opcode = pdu[0]
        body = pdu[1:]
        try:
            if opcode == EXCHANGE_MTU_REQ and len(body) == 2:
                self.mtu = max(DEFAULT_MTU, min(struct.unpack("<H", body)[0], LOCAL_MTU))
                return struct.pack("<BH", EXCHANGE_MTU_RSP, LOCAL_MTU)
            if opcode == READ_BY_GROUP_TYPE_REQ and len(body) in (6, 20):
                return self._read_by_group_type(*struct.unpack("<HH", body[:4]), body[4:])
            if opcode == FIND_BY_TYPE_VALUE_REQ and len(body) >= 6:
                return self._find_by_type_value(*struct.unpack("<HHH", body[:6]), body[6:])
            if opcode == READ_BY_TYPE_REQ and len(body) in (6, 20):
                return self._read_by_type(*struct.unpack("<HH", body[:4]), body[4:])
            if opcode == FIND_INFORMATION_REQ and len(body) == 4:
                return self._find_information(*struct.unpack("<HH", body))
            if opcode in (READ_REQ, READ_BLOB_REQ) and len(body) == (2 if opcode == READ_REQ else 4):
                handle = struct.unpack("<H", body[:2])[0]
                offset = struct.unpack("<H", body[2:])[0] if opcode == READ_BLOB_REQ else 0
                return await self._read(opcode, handle, offset)
            if opcode in (WRITE_REQ, WRITE_CMD) and len(body) >= 2:
                return await self._write(opcode, struct.unpack("<H", body[:2])[0], body[2:])
            if opcode == HANDLE_VALUE_CFM:
                return None
        except ATTFailure as failure:
            handle, code = failure.args
            return error_response(opcode, handle, code)
        if opcode & 0x40:  # a command: no response, ever (Vol 3 Part F 3.3.1)
            return None
        return error_response(opcode, 0, INVALID_PDU if opcode in _KNOWN_REQUESTS else REQUEST_NOT_SUPPORTED)

    def _read_by_group_type(self, start, end, group_type):
        if start == 0 or start > end:
            return error_response(READ_BY_GROUP_TYPE_REQ, start, 0x01)
        if group_type != struct.pack("<H", PRIMARY_SERVICE):
            return error_response(READ_BY_GROUP_TYPE_REQ, start, 0x10)  # Unsupported Group Type
        entries = []
        for attribute in self._in_range(start, end):
            if attribute.role != "service":
                continue
            if entries and len(attribute.value) != len(entries[0][2]):
                break
            entries.append((attribute.handle, attribute.group_end, attribute.value))
        if not entries:
            return error_response(READ_BY_GROUP_TYPE_REQ, start, ATTRIBUTE_NOT_FOUND)
        length = 4 + len(entries[0][2])
        entries = entries[: (self.mtu - 2) // length]
        return bytes([READ_BY_GROUP_TYPE_RSP, length]) + b"".join(struct.pack("<HH", s, e) + v for s, e, v in entries)

    def _find_by_type_value(self, start, end, attribute_type, value):
        if start == 0 or start > end:
            return error_response(FIND_BY_TYPE_VALUE_REQ, start, 0x01)
        found = [attribute for attribute in self._in_range(start, end)
                 if attribute.type_bytes == struct.pack("<H", attribute_type) and attribute.value == value]
        if not found:
            return error_response(FIND_BY_TYPE_VALUE_REQ, start, ATTRIBUTE_NOT_FOUND)
        found = found[: (self.mtu - 1) // 4]
        return bytes([FIND_BY_TYPE_VALUE_RSP]) + b"".join(struct.pack("<HH", a.handle, a.group_end) for a in found)

    def _read_by_type(self, start, end, attribute_type):
        if start == 0 or start > end:
            return error_response(READ_BY_TYPE_REQ, start, 0x01)
        entries = []
        for attribute in self._in_range(start, end):
            # Characteristic declarations only: the values live in the application and are
            # read one at a time (Read Request), which is all a GATT client of 18013-5 needs.
            if attribute.type_bytes != attribute_type or attribute.role != "declaration":
                continue
            if entries and len(attribute.value) != len(entries[0][1]):
                break
            entries.append((attribute.handle, attribute.value))
        if not entries:
            return error_response(READ_BY_TYPE_REQ, start, ATTRIBUTE_NOT_FOUND)
        length = 2 + len(entries[0][1])
        entries = entries[: (self.mtu - 2) // length]
        return bytes([READ_BY_TYPE_RSP, length]) + b"".join(struct.pack("<H", h) + v for h, v in entries)

    def _find_information(self, start, end):
        if start == 0 or start > end:
            return error_response(FIND_INFORMATION_REQ, start, 0x01)
        attributes = self._in_range(start, end)
        if not attributes:
            return error_response(FIND_INFORMATION_REQ, start, ATTRIBUTE_NOT_FOUND)
        width = len(attributes[0].type_bytes)
        entries = []
        for attribute in attributes:
            if len(attribute.type_bytes) != width or (len(entries) + 1) * (2 + width) > self.mtu - 2:
                break
            entries.append(struct.pack("<H", attribute.handle) + attribute.type_bytes)
        return bytes([FIND_INFORMATION_RSP, 1 if width == 2 else 2]) + b"".join(entries)

    async def _read(self, opcode, handle, offset):
        attribute = self._attribute(handle)
        if attribute is None:
            raise ATTFailure(handle, INVALID_HANDLE)
        if attribute.role == "value":
            characteristic = attribute.characteristic
            if "read" not in characteristic.flags:
                raise ATTFailure(handle, READ_NOT_PERMITTED)
            options = {"offset": ("q", offset), "mtu": ("q", self.mtu), "device": ("o", self.device_path), "link": ("s", "LE")}
            value = await self.application.call(characteristic.owner, characteristic.path, GATT_CHARACTERISTIC_INTERFACE, "ReadValue", "a{sv}", [options])
            if value is None:
                raise ATTFailure(handle, UNLIKELY_ERROR)
            data = bytes(value[0])
        else:
            data = attribute.value
            if offset > len(data):
                raise ATTFailure(handle, INVALID_OFFSET)
            data = data[offset:]
        return bytes([READ_RSP if opcode == READ_REQ else READ_BLOB_RSP]) + data[: self.mtu - 1]

    async def _write(self, opcode, handle, value):
        attribute = self._attribute(handle)
        if attribute is None:
            if opcode == WRITE_CMD:
                return None
            raise ATTFailure(handle, INVALID_HANDLE)
        characteristic = attribute.characteristic
        if attribute.role == "cccd":
            if len(value) != 2:
                raise ATTFailure(handle, INVALID_ATTRIBUTE_VALUE_LENGTH)
            enabled = struct.unpack("<H", value)[0] & 0x0003 != 0
            attribute.value = bytes(value)
            await self._set_notifying(characteristic, enabled)
            return bytes([WRITE_RSP]) if opcode == WRITE_REQ else None
        if attribute.role != "value":
            raise ATTFailure(handle, WRITE_NOT_PERMITTED)
        # bluetoothd grants writes by permission, which either write flag gives, so a Write
        # Request to a write-without-response characteristic goes through (gatt-database.c).
        if "write" not in characteristic.flags and "write-without-response" not in characteristic.flags:
            if opcode == WRITE_CMD:
                return None
            raise ATTFailure(handle, WRITE_NOT_PERMITTED)
        # bluetoothd 5.63 to 5.68 check the handle and the value together against the 512-octet
        # limit: a value above 510 octets is refused, without a word for a Write Command
        # (src/shared/gatt-server.c check_length, fixed in 5.69).
        if len(value) > MAXIMUM_WRITTEN_VALUE:
            self.log(f"dropped a write of {len(value)} octets to {characteristic.path}, as bluetoothd 5.66 does")
            if opcode == WRITE_CMD:
                return None
            raise ATTFailure(handle, INVALID_ATTRIBUTE_VALUE_LENGTH)
        options = {"device": ("o", self.device_path), "link": ("s", "LE"), "mtu": ("q", self.mtu)}
        reply = await self.application.call(characteristic.owner, characteristic.path, GATT_CHARACTERISTIC_INTERFACE, "WriteValue", "aya{sv}", [bytes(value), options])
        if reply is None and opcode == WRITE_REQ:
            raise ATTFailure(handle, UNLIKELY_ERROR)
        return bytes([WRITE_RSP]) if opcode == WRITE_REQ else None

    async def _set_notifying(self, characteristic, enabled):
        if bool(self.notifying.get(characteristic)) == enabled:
            return
        self.notifying[characteristic] = enabled
        if not enabled:
            del self.notifying[characteristic]
        # As bluetoothd (src/gatt-database.c, ccc_write_cb): StartNotify for every client that
        # enables notifications, StopNotify only when the last one disables them.
        key = (characteristic.owner, characteristic.path)
        counts = self.application.notify_counts
        counts[key] = counts.get(key, 0) + (1 if enabled else -1)
        if enabled or counts[key] == 0:
            await self.application.call(characteristic.owner, characteristic.path, GATT_CHARACTERISTIC_INTERFACE,
                                        "StartNotify" if enabled else "StopNotify", "", [])


# The requests answered above; one of them with parameters of the wrong size is an Invalid PDU.
_KNOWN_REQUESTS = {EXCHANGE_MTU_REQ, FIND_INFORMATION_REQ, FIND_BY_TYPE_VALUE_REQ, READ_BY_TYPE_REQ, READ_REQ,
                   READ_BLOB_REQ, READ_BY_GROUP_TYPE_REQ, WRITE_REQ}


class RemoteCharacteristic:
    """A characteristic of the remote server, found by discovery."""

    def __init__(self, declaration_handle, properties, value_handle, uuid):
        self.declaration_handle = declaration_handle
        self.properties = properties
        self.value_handle = value_handle
        self.uuid = uuid
        self.cccd_handle = 0

    @property
    def flags(self):
        return [name for name, bit in PROPERTY_FLAGS.items() if self.properties & bit]


class AttributeClient:
    """The GATT client side of one sim connection, as bluetoothd runs it for Device1.

    `on_notification(value_handle, value)` and `on_closed()` are called from the receive loop.
    """

    def __init__(self, sock, on_notification, on_closed):
        self.sock = sock
        self.mtu = DEFAULT_MTU
        self.on_notification = on_notification
        self.on_closed = on_closed
        self.turn = asyncio.Lock()
        self.pending = None
        self.closed = False
        self.receiver = asyncio.get_running_loop().create_task(self._receive())

    @classmethod
    async def connect(cls, address, on_notification, on_closed):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        sock.setblocking(False)
        try:
            await asyncio.get_running_loop().sock_connect(sock, "\0" + address)
        except OSError:
            sock.close()
            raise
        return cls(sock, on_notification, on_closed)

    def close(self):
        if not self.closed:
            self.closed = True
            self.sock.close()
            if self.pending and not self.pending.done():
                self.pending.set_exception(ATTFailure("the link closed"))
            self.receiver.cancel()

    async def _receive(self):
        loop = asyncio.get_running_loop()
        try:
            while True:
                pdu = await loop.sock_recv(self.sock, MAXIMUM_PDU)
                if not pdu:
                    break
                opcode = pdu[0]
                if opcode in (HANDLE_VALUE_NTF, HANDLE_VALUE_IND) and len(pdu) >= 3:
                    if opcode == HANDLE_VALUE_IND:
                        await loop.sock_sendall(self.sock, bytes([HANDLE_VALUE_CFM]))
                    self.on_notification(struct.unpack("<H", pdu[1:3])[0], bytes(pdu[3:]))
                elif self.pending and not self.pending.done():
                    self.pending.set_result(bytes(pdu))
                elif opcode in _KNOWN_REQUESTS:  # the server asked us something: we hold no attributes
                    await loop.sock_sendall(self.sock, error_response(opcode, 0, REQUEST_NOT_SUPPORTED))
        except (ConnectionError, OSError, asyncio.CancelledError):
            pass
        if not self.closed:
            self.closed = True
            self.sock.close()
            if self.pending and not self.pending.done():
                self.pending.set_exception(ATTFailure("the link closed"))
            self.on_closed()

    async def request(self, pdu, expected):
        """Sends a request and returns its response's parameters; raises ATTFailure on an
        Error Response, a timeout or a closed link."""
        async with self.turn:
            if self.closed:
                raise ATTFailure("the link closed")
            self.pending = asyncio.get_running_loop().create_future()
            await asyncio.get_running_loop().sock_sendall(self.sock, pdu)
            try:
                response = await asyncio.wait_for(self.pending, TRANSACTION_TIMEOUT)
            except asyncio.TimeoutError:
                raise ATTFailure("no response within the ATT transaction timeout") from None
            if response[0] == ERROR_RSP and len(response) == 5:
                raise ATTFailure(pdu[0], struct.unpack("<H", response[2:4])[0], response[4])
            if response[0] != expected:
                raise ATTFailure(f"opcode {response[0]:#04x} does not answer {pdu[0]:#04x}")
            return response[1:]

    async def command(self, pdu):
        if self.closed:
            raise ATTFailure("the link closed")
        await asyncio.get_running_loop().sock_sendall(self.sock, pdu)

    async def exchange_mtu(self):
        response = await self.request(struct.pack("<BH", EXCHANGE_MTU_REQ, LOCAL_MTU), EXCHANGE_MTU_RSP)
        self.mtu = max(DEFAULT_MTU, min(LOCAL_MTU, struct.unpack("<H", response)[0]))
        return self.mtu

    async def discover(self):
        """Every primary service with its characteristics and their CCCDs:
        [(service uuid, start, end, [RemoteCharacteristic])]."""
        services = []
        start = 1
        while start <= 0xFFFF:
            try:
                response = await self.request(struct.pack("<BHHH", READ_BY_GROUP_TYPE_REQ, start, 0xFFFF, PRIMARY_SERVICE),
                                              READ_BY_GROUP_TYPE_RSP)
            except ATTFailure as failure:
                if len(failure.args) == 3 and failure.args[2] == ATTRIBUTE_NOT_FOUND:
                    break
                raise
            length = response[0]
            entries = [response[1 + i: 1 + i + length] for i in range(0, len(response) - 1, length)]
            for entry in entries:
                first, last = struct.unpack("<HH", entry[:4])
                services.append((uuid_text(entry[4:]), first, last, []))
                start = last + 1
            if not entries or start == 0:
                break
        for index, (service_uuid, first, last, characteristics) in enumerate(services):
            await self._discover_characteristics(first, last, characteristics)
            for position, characteristic in enumerate(characteristics):
                end = characteristics[position + 1].declaration_handle - 1 if position + 1 < len(characteristics) else last
                characteristic.cccd_handle = await self._find_cccd(characteristic.value_handle + 1, end)
        return services

    async def _discover_characteristics(self, first, last, characteristics):
        start = first
        while start <= last:
            try:
                response = await self.request(struct.pack("<BHHH", READ_BY_TYPE_REQ, start, last, CHARACTERISTIC), READ_BY_TYPE_RSP)
            except ATTFailure as failure:
                if len(failure.args) == 3 and failure.args[2] == ATTRIBUTE_NOT_FOUND:
                    return
                raise
            length = response[0]
            for i in range(1, len(response), length):
                entry = response[i: i + length]
                handle, properties, value_handle = struct.unpack("<HBH", entry[:5])
                characteristics.append(RemoteCharacteristic(handle, properties, value_handle, uuid_text(entry[5:])))
                start = value_handle + 1

    async def _find_cccd(self, start, end):
        while start <= end:
            try:
                response = await self.request(struct.pack("<BHH", FIND_INFORMATION_REQ, start, end), FIND_INFORMATION_RSP)
            except ATTFailure as failure:
                if len(failure.args) == 3 and failure.args[2] == ATTRIBUTE_NOT_FOUND:
                    return 0
                raise
            width = 2 if response[0] == 1 else 16
            for i in range(1, len(response), 2 + width):
                handle = struct.unpack("<H", response[i: i + 2])[0]
                if response[i + 2: i + 2 + width] == struct.pack("<H", CLIENT_CHARACTERISTIC_CONFIGURATION):
                    return handle
                start = handle + 1
        return 0

    async def read(self, handle):
        value = await self.request(struct.pack("<BH", READ_REQ, handle), READ_RSP)
        while len(value) % (self.mtu - 1) == 0 and value:
            more = await self.request(struct.pack("<BHH", READ_BLOB_REQ, handle, len(value)), READ_BLOB_RSP)
            if not more:
                break
            value += more
        return value

    async def write(self, handle, value, with_response):
        if with_response:
            await self.request(struct.pack("<BH", WRITE_REQ, handle) + bytes(value), WRITE_RSP)
        else:
            await self.command(struct.pack("<BH", WRITE_CMD, handle) + bytes(value))
