"""What swift-mdoc's Bumble peers share: ISO/IEC 18013-5 engagement, session encryption and the
BLE GATT service, written from the standard's rules on Bumble's own GATT server and client.

The peers (reader_peer.py, holder_peer.py) are an independent implementation for interop tests;
nothing here comes from swift-mdoc's Swift code. Facts used, by clause:

- 8.2.1.1 DeviceEngagement {0: "1.0", 1: Security [1, EDeviceKeyBytes], 2: [[2, 1, BleOptions]]},
  BleOptions {0: peripheral server mode, 1: central client mode, 10/11: service UUID (bstr 16)}.
- 9.1.5.1 SessionTranscript [DeviceEngagementBytes, EReaderKeyBytes, null] (QR handover).
- 9.1.1.5 SKReader/SKDevice = HKDF-SHA-256(ECDH Z, salt = SHA-256(SessionTranscriptBytes),
  info "SKReader"/"SKDevice", 32 octets); AES-256-GCM with IV = identifier (8 octets, reader 0,
  mdoc 1) || message counter (4 octets, big-endian, from 1).
- 8.3.3.1.1 the GATT service: State (0x01 start, 0x02 end), Client2Server, Server2Client, and
  Ident in central client mode = HKDF-SHA-256(EDeviceKeyBytes, empty salt, "BLEIdent", 16);
  chunks of at most min(512, ATT_MTU - 3) octets whose first octet is 0x01 (more follow) or
  0x00 (last).
"""

import asyncio
import base64
import hashlib
import json
import os
import sys
import uuid as std_uuid

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from bumble.core import UUID, AdvertisingData
from bumble.device import Device, Peer
from bumble.gatt import Characteristic, CharacteristicValue, Service
from bumble.hci import Address, OwnAddressType

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from pymdoccbor_verify_mso import Failure, parse_whole  # noqa: E402  (the raw-span CBOR reader)

# 8.3.3.1.1.4 Table 11 (peripheral server mode) and Table 12 (central client mode).
CHARACTERISTICS = {
    "peripheral": {"state": "00000001-A123-48CE-896B-4C76973373E6",
                   "client2server": "00000002-A123-48CE-896B-4C76973373E6",
                   "server2client": "00000003-A123-48CE-896B-4C76973373E6"},
    "central": {"state": "00000005-A123-48CE-896B-4C76973373E6",
                "client2server": "00000006-A123-48CE-896B-4C76973373E6",
                "server2client": "00000007-A123-48CE-896B-4C76973373E6",
                "ident": "00000008-A123-48CE-896B-4C76973373E6"},
}
STATE_START = 0x01
STATE_END = 0x02
CHUNK_MORE = 0x01
CHUNK_LAST = 0x00
# The MTU a GATT client asks for: 512 octets of value plus the 3-octet notification header.
REQUESTED_MTU = 515
MAXIMUM_CHUNK = 512
# The largest message the peers take (the Swift side allows more; a test response is ~25 KB).
MAXIMUM_MESSAGE = 4 * 1024 * 1024
SESSION_TERMINATION = 20  # 9.1.1.4 Table 20
DISCONNECT_TIMEOUT = 5  # seconds for Disconnection Complete after Disconnect
READER_IDENTIFIER = bytes(8)
DEVICE_IDENTIFIER = bytes(7) + b"\x01"


class PeerError(Exception):
    """A protocol rule the other side broke, or a step that did not happen in time."""


def run(session, timeout):
    """Runs the coroutine `session()` makes, within `timeout` seconds, and prints the last stdout
    line of a peer: the JSON of its result, or {"outcome": "failed", "error"} when the other side
    broke a rule, a step did not happen in time, or an input could not be used. Returns the exit
    status (0 or 1)."""
    try:
        result = asyncio.run(asyncio.wait_for(session(), timeout))
    except (PeerError, Failure, OSError, ValueError, KeyError, cbor2.CBORError, asyncio.TimeoutError) as error:
        print(json.dumps({"outcome": "failed", "error": f"{type(error).__name__}: {error}"}))
        return 1
    print(json.dumps(result))
    return 0


class Raw:
    """Already encoded CBOR, written as it is (received bytes are never encoded again)."""

    def __init__(self, raw):
        self.raw = bytes(raw)


def _write_raw(encoder, value):
    if not isinstance(value, Raw):
        raise TypeError(f"cannot encode {type(value).__name__}")
    encoder.write(value.raw)


def dumps(value):
    """CBOR of `value`, with Raw items spliced in byte for byte."""
    return cbor2.dumps(value, default=_write_raw)


def tagged(encoded):
    """#6.24(bstr .cbor): the encoded bytes wrapped as embedded CBOR (RFC 8949 3.4.5.1)."""
    return cbor2.dumps(cbor2.CBORTag(24, bytes(encoded)))


def cose_key(public_key):
    """The COSE_Key (RFC 9053 7.1.1) of a P-256 public key."""
    numbers = public_key.public_numbers()
    return {1: 2, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")}


def public_key_from_cose(key, where):
    """The P-256 public key of a decoded COSE_Key; PeerError names what is wrong."""
    if not isinstance(key, dict) or key.get(1) != 2 or key.get(-1) != 1:
        raise PeerError(f"{where}: not an EC2 P-256 COSE_Key")
    x, y = key.get(-2), key.get(-3)
    if not isinstance(x, bytes) or not isinstance(y, bytes) or len(x) != 32 or len(y) != 32:
        raise PeerError(f"{where}: x and y must be 32-octet bstr")
    try:
        return ec.EllipticCurvePublicNumbers(int.from_bytes(x, "big"), int.from_bytes(y, "big"),
                                             ec.SECP256R1()).public_key()
    except ValueError as error:
        raise PeerError(f"{where}: point not on P-256") from error


def ident(e_device_key_bytes):
    """8.3.3.1.1.4: the 16-octet Ident from EDeviceKeyBytes (tag 24 included)."""
    return HKDF(hashes.SHA256(), 16, salt=None, info=b"BLEIdent").derive(e_device_key_bytes)


def make_engagement(e_device_key, mode, service_uuid):
    """DeviceEngagement bytes offering BLE in `mode` with `service_uuid` (8.2.1.1)."""
    e_device_key_bytes = tagged(cbor2.dumps(cose_key(e_device_key.public_key())))
    options = {0: mode == "peripheral", 1: mode == "central",
               10 if mode == "peripheral" else 11: service_uuid.bytes}
    engagement = {0: "1.0", 1: [1, Raw(e_device_key_bytes)], 2: [[2, 1, options]]}
    return dumps(engagement), e_device_key_bytes


def uri(engagement):
    """The mdoc: URI of the QR code (8.2.2.3): base64url without padding."""
    return "mdoc:" + base64.urlsafe_b64encode(engagement).rstrip(b"=").decode("ascii")


def engagement_from_uri(text):
    """The DeviceEngagement bytes of an mdoc: URI."""
    if not text.startswith("mdoc:"):
        raise PeerError("the engagement must be an mdoc: URI")
    body = text[len("mdoc:"):]
    try:
        return base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    except ValueError as error:
        raise PeerError(f"mdoc: URI is not base64url: {error}") from error


class Engagement:
    """The parts of a received DeviceEngagement a reader uses, each as the bytes received."""

    def __init__(self, data):
        self.bytes = data
        try:
            engagement = parse_whole(data, "DeviceEngagement")
            security = engagement.get(1).value
            suite, e_device_key_item = security[0].value, security[1]
        except (Failure, AttributeError, IndexError, TypeError) as error:
            raise PeerError(f"DeviceEngagement: {error}") from error
        if suite != 1:
            raise PeerError(f"DeviceEngagement.security: cipher suite {suite}, only 1 is defined")
        if e_device_key_item.major != 6 or e_device_key_item.tag != 24 or e_device_key_item.value.major != 2:
            raise PeerError("DeviceEngagement.security[1]: EDeviceKeyBytes must be #6.24(bstr)")
        self.e_device_key_bytes = e_device_key_item.raw
        self.e_device_key = public_key_from_cose(cbor2.loads(e_device_key_item.value.value), "EDeviceKey")
        self.ble = {}
        for method in cbor2.loads(data).get(2, []):
            if isinstance(method, list) and len(method) == 3 and method[0] == 2 and isinstance(method[2], dict):
                options = method[2]
                if options.get(0) and isinstance(options.get(10), bytes):
                    self.ble["peripheral"] = _uuid(options[10])
                if options.get(1) and isinstance(options.get(11), bytes):
                    self.ble["central"] = _uuid(options[11])
        if not self.ble:
            raise PeerError("DeviceEngagement: no BLE retrieval method with a service UUID")


def _uuid(data):
    if len(data) != 16:
        raise PeerError("BleOptions: a service UUID must be 16 octets")
    return std_uuid.UUID(bytes=data)


class SessionCipher:
    """Session encryption of one side (9.1.1.5): its own key and counter for what it sends, the
    peer's for what it receives."""

    def __init__(self, private_key, peer_public_key, transcript_bytes, reader):
        shared = private_key.exchange(ec.ECDH(), peer_public_key)
        salt = hashlib.sha256(transcript_bytes).digest()
        sk_reader = HKDF(hashes.SHA256(), 32, salt=salt, info=b"SKReader").derive(shared)
        sk_device = HKDF(hashes.SHA256(), 32, salt=salt, info=b"SKDevice").derive(shared)
        if reader:
            self._send = (AESGCM(sk_reader), READER_IDENTIFIER)
            self._receive = (AESGCM(sk_device), DEVICE_IDENTIFIER)
        else:
            self._send = (AESGCM(sk_device), DEVICE_IDENTIFIER)
            self._receive = (AESGCM(sk_reader), READER_IDENTIFIER)
        self._sent = 0
        self._received = 0

    def seal(self, plaintext):
        self._sent += 1
        cipher, identifier = self._send
        return cipher.encrypt(identifier + self._sent.to_bytes(4, "big"), plaintext, None)

    def open(self, ciphertext):
        self._received += 1
        cipher, identifier = self._receive
        try:
            return cipher.decrypt(identifier + self._received.to_bytes(4, "big"), ciphertext, None)
        except Exception as error:
            raise PeerError(f"SessionData {self._received}: AES-GCM authentication failed") from error


def session_transcript(engagement_bytes, e_reader_key_bytes):
    """(SessionTranscript as Raw-spliced value, SessionTranscriptBytes) for QR engagement."""
    transcript = [Raw(tagged(engagement_bytes)), Raw(e_reader_key_bytes), None]
    return transcript, tagged(dumps(transcript))


def chunks(message, mtu):
    """The chunks of `message` for an ATT_MTU (8.3.3.1.1.6)."""
    size = min(MAXIMUM_CHUNK, mtu - 3) - 1
    parts = [message[i:i + size] for i in range(0, len(message), size)] or [b""]
    return [bytes([CHUNK_MORE if i < len(parts) - 1 else CHUNK_LAST]) + part for i, part in enumerate(parts)]


class Reassembler:
    """Joins chunks into messages; a header other than 0x00/0x01 or an oversized message is an error."""

    def __init__(self):
        self.buffer = bytearray()

    def append(self, chunk):
        if not chunk or chunk[0] not in (CHUNK_MORE, CHUNK_LAST):
            raise PeerError(f"chunk header {chunk[:1].hex() or 'missing'}: must be 00 or 01")
        self.buffer += chunk[1:]
        if len(self.buffer) > MAXIMUM_MESSAGE:
            raise PeerError(f"message over {MAXIMUM_MESSAGE} octets")
        if chunk[0] == CHUNK_MORE:
            return None
        message, self.buffer = bytes(self.buffer), bytearray()
        return message


class Link:
    """One side of the 18013-5 GATT service: whole messages in and out, State changes, the end.

    `events` yields ("message", bytes), ("state", value) and ("disconnected", reason)."""

    def __init__(self):
        self.events = asyncio.Queue()
        self.reassembler = Reassembler()
        self.mtu = 23

    def received_chunk(self, chunk):
        try:
            message = self.reassembler.append(bytes(chunk))
        except PeerError as error:
            self.events.put_nowait(("error", str(error)))
            return
        if message is not None:
            self.events.put_nowait(("message", message))

    def received_state(self, value):
        if bytes(value) == bytes([STATE_START]):
            self.reassembler = Reassembler()
        self.events.put_nowait(("state", bytes(value)))

    async def next_message(self, timeout):
        """The next whole message; PeerError on State end, disconnection or a bad chunk."""
        while True:
            try:
                kind, value = await asyncio.wait_for(self.events.get(), timeout)
            except asyncio.TimeoutError as error:
                raise PeerError(f"no message within {timeout} s") from error
            if kind == "message":
                return value
            if kind == "state" and value == bytes([STATE_END]):
                raise PeerError("the peer ended the session (State 0x02)")
            if kind in ("disconnected", "error"):
                raise PeerError(f"{kind}: {value}")


class ServerLink(Link):
    """The GATT server side: the service on `device`, notifications to the one connected client."""

    def __init__(self, device, mode, service_uuid, ident_value=None):
        super().__init__()
        self.device = device
        self.connection = None
        self.subscribed = set()
        self.started_by_client = False
        self.started = asyncio.Event()
        uuids = CHARACTERISTICS[mode]
        notify_write = Characteristic.Properties.NOTIFY | Characteristic.Properties.WRITE_WITHOUT_RESPONSE
        self.state = Characteristic(uuids["state"], notify_write, Characteristic.WRITEABLE,
                                    CharacteristicValue(write=lambda _, value: self._state_written(value)))
        self.client2server = Characteristic(
            uuids["client2server"], Characteristic.Properties.WRITE_WITHOUT_RESPONSE, Characteristic.WRITEABLE,
            CharacteristicValue(write=lambda _, value: self.received_chunk(value)))
        self.server2client = Characteristic(uuids["server2client"], Characteristic.Properties.NOTIFY,
                                            Characteristic.READABLE, b"")
        characteristics = [self.state, self.client2server, self.server2client]
        if mode == "central":
            characteristics.append(Characteristic(uuids["ident"], Characteristic.Properties.READ,
                                                  Characteristic.READABLE, ident_value))
        for characteristic in (self.state, self.server2client):
            characteristic.on("subscription", self._subscription(characteristic))
        device.add_service(Service(str(service_uuid).upper(), characteristics))

    def _subscription(self, characteristic):
        def changed(_connection, notify_enabled, _indicate_enabled):
            (self.subscribed.add if notify_enabled else self.subscribed.discard)(characteristic.uuid)
            self._update_started()
        return changed

    def _state_written(self, value):
        self.received_state(value)
        self._update_started()

    def _update_started(self):
        # 8.3.3.1.1.4: the session starts once State 0x01 was written and both notify.
        if self.started_by_client and self.subscribed >= {self.state.uuid, self.server2client.uuid}:
            self.started.set()

    def received_state(self, value):
        if bytes(value) == bytes([STATE_START]):
            self.started_by_client = True
        super().received_state(value)

    async def send(self, message):
        await self.started.wait()
        self.mtu = self.connection.att_mtu
        for chunk in chunks(message, self.mtu):
            await self.device.notify_subscriber(self.connection, self.server2client, chunk)

    async def end(self):
        """State 0x02 as a notification (8.3.3.1.1.5), then the link goes down."""
        if self.connection is not None:
            if self.state.uuid in self.subscribed:
                await self.device.notify_subscriber(self.connection, self.state, bytes([STATE_END]))
            await disconnect(self.connection)


class ClientLink(Link):
    """The GATT client side over a connection: MTU, discovery, Ident check, subscriptions, start."""

    def __init__(self, connection):
        super().__init__()
        self.connection = connection
        self.peer = Peer(connection)

    async def open(self, mode, service_uuid, expected_ident=None, subscribe_state=True):
        """The connection sequence of 8.3.3.1.1.4 up to State 0x01. With `subscribe_state`
        false it enables Server2Client notifications only, as some clients do: the session's
        messages need nothing else."""
        self.mtu = await self.peer.request_mtu(REQUESTED_MTU)
        services = await self.peer.discover_service(str(service_uuid).upper())
        if not services:
            raise PeerError(f"the GATT server has no service {service_uuid}")
        found = {str(c.uuid).upper(): c for c in await self.peer.discover_characteristics(service=services[0])}
        uuids = CHARACTERISTICS[mode]
        try:
            self.state, self.client2server, self.server2client = (
                found[uuids[name]] for name in ("state", "client2server", "server2client"))
        except KeyError as error:
            raise PeerError(f"the service lacks characteristic {error.args[0]}") from error
        if expected_ident is not None:
            if uuids["ident"] not in found:
                raise PeerError("the service lacks the Ident characteristic")
            served = bytes(await self.peer.read_value(found[uuids["ident"]]))
            if served != expected_ident:
                raise PeerError(f"Ident {served.hex()} is not {expected_ident.hex()} from EDeviceKeyBytes")
        if subscribe_state:
            await self.peer.subscribe(self.state, self.received_state)
        await self.peer.subscribe(self.server2client, self.received_chunk)
        await self.peer.write_value(self.state, bytes([STATE_START]), with_response=False)

    async def send(self, message):
        for chunk in chunks(message, self.mtu):
            await self.peer.write_value(self.client2server, chunk, with_response=False)

    async def end(self):
        """State 0x02 (8.3.3.1.1.5), then the link goes down."""
        await self.peer.write_value(self.state, bytes([STATE_END]), with_response=False)
        await disconnect(self.connection)


def random_static_address():
    """A random static device address (Core Vol 6 Part B 1.3.2.1): top two bits 11."""
    octets = bytearray(os.urandom(6))
    octets[0] |= 0xC0
    return Address(":".join(f"{b:02X}" for b in octets), Address.RANDOM_DEVICE_ADDRESS)


def make_device(name, hci_source, hci_sink):
    return Device.with_hci(name, random_static_address(), hci_source, hci_sink)


async def advertise(device, service_uuid):
    """Connectable advertising of `service_uuid` (8.3.3.1.1.4): Flags and the 128-bit UUID."""
    data = AdvertisingData([
        (AdvertisingData.FLAGS, bytes([0x06])),
        (AdvertisingData.COMPLETE_LIST_OF_128_BIT_SERVICE_CLASS_UUIDS,
         UUID(str(service_uuid).upper()).to_bytes(force_128=True)),
    ])
    await device.start_advertising(advertising_data=bytes(data), own_address_type=OwnAddressType.RANDOM)


async def accept(device, timeout):
    """The first connection to `device` within `timeout` seconds."""
    connected = asyncio.get_running_loop().create_future()
    device.once("connection", lambda connection: connected.done() or connected.set_result(connection))
    try:
        return await asyncio.wait_for(connected, timeout)
    except asyncio.TimeoutError as error:
        raise PeerError(f"nobody connected within {timeout} s") from error


async def find_and_connect(device, service_uuid, timeout):
    """Scans for `service_uuid` and connects to the first device advertising it."""
    wanted = UUID(str(service_uuid).upper())
    found = asyncio.get_running_loop().create_future()

    def on_advertisement(advertisement):
        uuids = advertisement.data.get(AdvertisingData.COMPLETE_LIST_OF_128_BIT_SERVICE_CLASS_UUIDS) or []
        if wanted in uuids and advertisement.is_connectable and not found.done():
            found.set_result(advertisement.address)

    device.on("advertisement", on_advertisement)
    await device.start_scanning(filter_duplicates=True)
    try:
        address = await asyncio.wait_for(found, timeout)
    except asyncio.TimeoutError as error:
        raise PeerError(f"no device advertised {service_uuid} within {timeout} s") from error
    finally:
        await device.stop_scanning()
    return await device.connect(address, own_address_type=OwnAddressType.RANDOM, timeout=timeout)


async def disconnect(connection):
    """Ends `connection` unless the peer ended it first. Bumble's virtual controller accepts a
    Disconnect for a link that is already gone and then never reports its end, so a peer that
    ends the link just before this side does would leave `connection.disconnect()` waiting for
    ever: a link already gone is left alone, and the wait is bounded."""
    if connection.device.lookup_connection(connection.handle) is None:
        return
    try:
        await asyncio.wait_for(connection.disconnect(), DISCONNECT_TIMEOUT)
    except asyncio.TimeoutError as error:
        if connection.device.lookup_connection(connection.handle) is not None:
            raise PeerError(f"the link did not end within {DISCONNECT_TIMEOUT} s of Disconnect") from error


def watch_disconnection(connection, link):
    # Bumble handles an ATT Write Command in a task it starts when the PDU arrives, so a write
    # that came just before the link ended (State 0x02, then Disconnect) is taken after the
    # Disconnection Complete that arrived with it. The event is queued behind that task.
    loop = asyncio.get_running_loop()
    connection.on("disconnection", lambda reason: loop.call_soon(
        link.events.put_nowait, ("disconnected", f"reason {reason}")))
