#!/usr/bin/env python3
"""Writes the seed corpus of every fuzz target into FuzzTesting/Corpus/<target>/.

Seeds come from the ISO/IEC 18013-5 Annex D vectors (Vectors/), from what the project generates
(the demo credential and PKI in Certs/demo), and from the protocol sequences a peer sends (a GATT
client's discovery over ATT, a controller's HCI events and ACL data, what bluetoothd sends over D-Bus,
the APDUs of NFC engagement and NFC data retrieval as another implementation's tests exchange them, what vpcd sends a virtual card). Targets that take several
messages read them length-prefixed (two big-endian octets), as FuzzSupport's FuzzInput.parts does.
Run from anywhere: python3 FuzzTesting/make-corpus.py
"""

import base64
import hashlib
import hmac
import os
import struct
import sys
import uuid
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VECTORS = os.path.join(ROOT, "Vectors", "iso18013-5-annex-d")
CORPUS = os.path.join(ROOT, "FuzzTesting", "Corpus")


def vector(name):
    with open(os.path.join(VECTORS, name + ".hex")) as file:
        return bytes.fromhex("".join(file.read().split()))


def pem_der(path):
    with open(os.path.join(ROOT, path)) as file:
        body = "".join(line.strip() for line in file if not line.startswith("-----"))
    return base64.b64decode(body)


def framed(*messages):
    return b"".join(struct.pack(">H", len(message)) + message for message in messages)


def apdu_trace(commands, responses):
    """An APDU trace's text form (APDUTrace, what a session capture keeps as apdus.txt)."""
    lines = ["# swift-mdoc APDU trace: > command, < response (ISO/IEC 7816-4), hexadecimal"]
    for command, response in zip(commands, responses):
        lines += ["> " + command.hex().upper(), "< " + response.hex().upper()]
    return ("\n".join(lines) + "\n").encode()


def cbor(value):
    """The preferred CBOR encoding (RFC 8949 4.2.1) of ints, bytes, text, lists, dicts and Tagged."""
    def head(major, argument):
        for size, marker in ((0, None), (1, 24), (2, 25), (4, 26), (8, 27)):
            if marker is None and argument < 24:
                return bytes([major << 5 | argument])
            if marker is not None and argument < 1 << (8 * size):
                return bytes([major << 5 | marker]) + argument.to_bytes(size, "big")
        raise ValueError(argument)
    if isinstance(value, Tagged):
        return head(6, value.tag) + cbor(value.content)
    if isinstance(value, int):
        return head(0, value) if value >= 0 else head(1, -1 - value)
    if isinstance(value, bytes):
        return head(2, len(value)) + value
    if isinstance(value, str):
        return head(3, len(value.encode())) + value.encode()
    if isinstance(value, list):
        return head(4, len(value)) + b"".join(cbor(item) for item in value)
    return head(5, len(value)) + b"".join(cbor(key) + cbor(item) for key, item in value.items())


class Tagged:
    def __init__(self, tag, content):
        self.tag, self.content = tag, content


def status_list_tokens():
    """Status List Tokens (draft-ietf-oauth-status-list 5.2) MACed with FuzzStatusListToken's key
    (HMAC 256/256, 32 bytes of 0x5a), one per list size, and their faulty neighbours."""
    key = bytes([0x5A]) * 32
    tokens = []
    for bits, raw in ((1, bytes([0xB9, 0xA3])), (2, bytes([0xC9, 0x44, 0xF9])), (4, bytes(range(0, 256, 17))), (8, bytes(range(40)))):
        protected = cbor({1: 5, 16: "application/statuslist+cwt"})
        claims = cbor({2: "https://example.com/statuslists/1", 6: 1704063600, 4: 1704153600, 65534: 3600,
                       65533: {"bits": bits, "lst": zlib.compress(raw, 9)}})
        tag = hmac.new(key, cbor(["MAC0", protected, b"", claims]), hashlib.sha256).digest()
        tokens.append(cbor(Tagged(17, [protected, {}, claims, tag])))
    tokens.append(tokens[0][1:])                  # untagged
    tokens.append(b"\xd8\x3d" + tokens[1])        # inside the CWT tag 61
    return tokens


def identifier_list_tokens():
    """Identifier list tokens (ISO/IEC 18013-5 second edition 12.3.6) MACed with the same key: none,
    one and many identifiers, one with an aggregation_uri, and an untagged one."""
    key = bytes([0x5A]) * 32
    tokens = []
    for identifiers in ([], [bytes([1])], [bytes([i, i ^ 0x5A]) * 8 for i in range(24)]):
        protected = cbor({1: 5, 16: "application/identifierlist+cwt"})
        listed = {"identifiers": {identifier: {} for identifier in identifiers}}
        if len(identifiers) == 1:
            listed["aggregation_uri"] = "https://example.com/identifierlists"
        claims = cbor({2: "https://example.com/identifierlists/1", 6: 1704063600, 4: 1704153600, 65534: 3600, 65530: listed})
        tag = hmac.new(key, cbor(["MAC0", protected, b"", claims]), hashlib.sha256).digest()
        tokens.append(cbor(Tagged(17, [protected, {}, claims, tag])))
    tokens.append(tokens[1][1:])                  # untagged
    return tokens


# Diagnostic notation (RFC 8949 section 8, RFC 8610 appendix G) and lossless JSON
# (docs/inspect-json.md), as docs/crafted-sessions.md describes them.
CBOR_TEXT_SEEDS = [
    '/ DeviceRequest /\n{"version": "1.0", "docRequests": [{"itemsRequest": 24(<<{"docType": "org.iso.18013.5.1.mDL", '
    '"nameSpaces": {"org.iso.18013.5.1": {"family_name": false}}}>>)}]}',
    "[_ 1, [2, 3], {_ \"a\": (_ h'01', h'02')}, (_ \"x\", \"y\"), 1_3, \"a\"_1, 24_0(h''), 1.5_2, -Infinity_3, NaN]",
    "{0x10: 0b101, -0o7: b64'AQID', 'abc': <<1, 2>>, simple(255): undefined, # comment\n 1.0e+300: -0.0}",
    '{"0": "1.0", "-1": {"$bytes": "AQI"}, "$$x": {"$tag": 24, "$value": {"$bytes": "oQEC"}, "$embedded": {"1": 2}}, '
    '"x": [{"$float": "NaN"}, {"$simple": 16}, 18446744073709551615, -18446744073709551616, 1.5e-7]}',
    '{"$map": [[{"$bytes": ""}, [true, null]], [[1], {"$tag": 1004, "$value": "2024-01-01"}]]}',
]


def write(target, seeds):
    folder = os.path.join(CORPUS, target)
    os.makedirs(folder, exist_ok=True)
    for seed in seeds:
        name = hashlib.sha1(seed).hexdigest()
        with open(os.path.join(folder, name), "wb") as file:
            file.write(seed)
    return len(seeds)


def online_seeds():
    """FuzzOnline: the HPKE messages pyca/cryptography sealed to RFC 9180 A.3.1's key
    (Vectors/rfc9180-hpke), enc || ct, and the ECDH-ES JWEs joserfc 1.6.5 made for RFC 7518
    Appendix C's key (Tests/MdocOnlineTests/CompactJWETests.swift)."""
    import json
    with open(os.path.join(ROOT, "Vectors", "rfc9180-hpke", "pyca-cryptography-base-p256.json")) as file:
        hpke = [bytes.fromhex(v["enc"] + v["ct"]) for v in json.load(file)]
    jwes = [
        "eyJhbGciOiJFQ0RILUVTIiwiZW5jIjoiQTEyOEdDTSIsImFwdSI6IlFXeHBZMlUiLCJhcHYiOiJRbTlpIiwia2lkIjoidmVyaWZpZXItZW5jIiwiZXBrIjp7ImNydiI6IlAtMjU2IiwieCI6IlQ4cVNUS2hsQVdiRjJJeU9kb1VXcDkwNDIyelhaTFo2bmpRM0hIc1ZYbzAiLCJ5IjoiZDAyem5iOXdiell6T2ZjLTBnblB2Y0xTTHlTbjJuTG9adjdveU05LTJfMCIsImt0eSI6IkVDIn19..i42g5nxrx-M1DWbC._mrihr8fg-mvOxuggvotgdFB2rxm1_xlGKmdV0W8MrbF9PtczNZ7FmcWswpgVxYbDnP-ChY8NA.9Ck5gECUlaOMqalver94mQ",
        "eyJhbGciOiJFQ0RILUVTIiwiZW5jIjoiQTI1NkdDTSIsImFwdSI6IlFXeHBZMlUiLCJhcHYiOiJRbTlpIiwia2lkIjoidmVyaWZpZXItZW5jIiwiZXBrIjp7ImNydiI6IlAtMjU2IiwieCI6Img5aGJfVlVtbHNxMDgtdVNhV2Y4Q1FSWENNNWF6d1hpOWhGY2JXRHpEYU0iLCJ5Ijoib09ONkJ6clJ2enlKMWp3R1pCUnlPb2F5TmRoOFpPZm5IYWFPUXN5NGxZbyIsImt0eSI6IkVDIn19..8wtRp97EAkXcaE_Z._IkWokttJaD6I8mCjV7t7TpdW9Lt5fMmWdlQJsg_5sY1OivQ4mGfY5hTNtkbb1BUrc-vVYWMNA.s8nUDTEkd4ITKxZKQWIo4A",
    ]
    return hpke + [jwe.encode() for jwe in jwes]


def vical_seeds(iaca):
    """Signed VICALs (ISO/IEC 18013-5 Annex C.1.7) listing the demo IACA, untagged and tagged, and the
    bare list: the structure matters to the decoder, not the signature, which is left as zeros."""
    entry = {"certificate": iaca, "serialNumber": Tagged(2, bytes(range(1, 17))), "ski": bytes(20),
             "docType": ["org.iso.18013.5.1.mDL", "eu.europa.ec.eudi.pid.1"], "issuingCountry": "US",
             "notBefore": Tagged(0, "2026-01-01T00:00:00Z"), "notAfter": Tagged(0, "2036-01-01T00:00:00Z"),
             "extensions": {"vendor": 1}}
    vical = cbor({"version": "1.0", "vicalProvider": "swift-mdoc corpus", "date": Tagged(0, "2026-11-29T00:00:00Z"),
                  "vicalIssueID": 1, "nextUpdate": Tagged(0, "2027-11-29T00:00:00Z"), "certificateInfos": [entry],
                  "futureField": [1]})
    message = [cbor({1: -7}), {33: iaca}, vical, bytes(64)]
    return [cbor(message), cbor(Tagged(18, message)), vical]


def att_sequence():
    """What the GATT client of an 18013-5 session sends (Core Vol 3 Part F 3.4; 8.3.3.1.1.4)."""
    service = uuid.UUID("45efef74-2b2c-4837-a9a3-b0e1d05a6917").bytes[::-1]
    return [
        bytes([0x02]) + struct.pack("<H", 515),                                   # Exchange MTU
        bytes([0x06]) + struct.pack("<HHH", 1, 0xFFFF, 0x2800) + service,         # Find By Type Value
        bytes([0x10]) + struct.pack("<HHH", 1, 0xFFFF, 0x2800),                   # Read By Group Type
        bytes([0x08]) + struct.pack("<HHH", 1, 0xFFFF, 0x2803),                   # Read By Type
        bytes([0x04]) + struct.pack("<HH", 1, 0xFFFF),                            # Find Information
        bytes([0x0A]) + struct.pack("<H", 3),                                     # Read
        bytes([0x0C]) + struct.pack("<HH", 3, 1),                                 # Read Blob
        bytes([0x12]) + struct.pack("<H", 4) + b"\x01\x00",                       # Write CCCD
        bytes([0x52]) + struct.pack("<H", 3) + b"\x01",                           # Write Command: State start
        bytes([0x52]) + struct.pack("<H", 6) + b"\x00" + vector("session_establishment")[:200],
    ]


def hci_stream():
    """A controller's H4 packets during an LE connection (Core Vol 4 Part E 7.7)."""
    events = [
        bytes([0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]),                          # Command Complete (Reset)
        bytes([0x04, 0x0F, 0x04, 0x00, 0x01, 0x06, 0x20]),                          # Command Status
        bytes([0x04, 0x3E, 0x13, 0x01, 0x00, 0x40, 0x00, 0x01, 0x01]) + bytes(6) + bytes([0x18, 0, 0, 0, 0x48, 0, 0]),  # LE Connection Complete
        bytes([0x04, 0x3E, 0x1A, 0x02, 0x01, 0x00, 0x01]) + bytes(6) + bytes([0x0E, 0x02, 0x01, 0x06, 0x11, 0x07]) + bytes(6) + bytes([0xC4]),  # LE Advertising Report (truncated UUID)
        bytes([0x04, 0x13, 0x05, 0x01, 0x40, 0x00, 0x01, 0x00]),                    # Number Of Completed Packets
        bytes([0x04, 0x05, 0x04, 0x00, 0x40, 0x00, 0x13]),                          # Disconnection Complete
    ]
    att = bytes([0x02]) + struct.pack("<H", 517)
    l2cap = struct.pack("<HH", len(att), 0x0004) + att
    acl = bytes([0x02]) + struct.pack("<HH", 0x2040, len(l2cap)) + l2cap
    signalling = struct.pack("<HH", 6, 0x0005) + bytes([0x12, 0x01, 0x02, 0x00, 0x00, 0x00])
    acl_signalling = bytes([0x02]) + struct.pack("<HH", 0x2040, len(signalling)) + signalling
    return events, acl, acl_signalling


class DBusWriter:
    """D-Bus marshaling (D-Bus Specification, "Marshaling (Wire Format)") of the few types the
    seeds use: y, b, q, u, s, o, g, v (a (signature, value) pair), arrays, structs and dict
    entries."""

    def __init__(self, endian="<"):
        self.endian = endian
        self.data = bytearray()

    def align(self, n):
        self.data += bytes(-len(self.data) % n)

    def write(self, signature, value):
        code = signature[0]
        if code == "y":
            self.data.append(value)
        elif code in "ub":
            self.align(4)
            self.data += struct.pack(self.endian + "I", value)
        elif code == "q":
            self.align(2)
            self.data += struct.pack(self.endian + "H", value)
        elif code in "so":
            self.align(4)
            text = value.encode()
            self.data += struct.pack(self.endian + "I", len(text)) + text + b"\0"
        elif code == "g":
            text = value.encode()
            self.data += bytes([len(text)]) + text + b"\0"
        elif code == "v":
            inner, item = value
            self.write("g", inner)
            self.write(inner, item)
        elif code == "a":
            element = signature[1:]
            self.align(4)
            at = len(self.data)
            self.data += bytes(4)
            self.align(8 if element[0] in "({" else {"y": 1, "g": 1, "v": 1, "q": 2}.get(element[0], 4))
            start = len(self.data)
            for item in value:
                self.write(element, item)
            self.data[at:at + 4] = struct.pack(self.endian + "I", len(self.data) - start)
        elif code in "({":
            self.align(8)
            for inner, item in zip(dbus_types(signature[1:-1]), value):
                self.write(inner, item)
        else:
            raise ValueError(signature)


def dbus_types(signature):
    """The complete types of `signature`, one after another."""
    types, index = [], 0
    while index < len(signature):
        end = index
        while signature[end] == "a":
            end += 1
        if signature[end] in "({":
            depth = 0
            while True:
                depth += signature[end] in "({"
                depth -= signature[end] in ")}"
                end += 1
                if depth == 0:
                    break
        else:
            end += 1
        types.append(signature[index:end])
        index = end
    return types


def dbus_message(kind, serial, fields, signature="", body=(), endian="<"):
    """One message: the fixed header, the header fields (code, (signature, value)) and the body."""
    content = DBusWriter(endian)
    for inner, item in zip(dbus_types(signature), body):
        content.write(inner, item)
    if signature:
        fields = fields + [(8, ("g", signature))]
    header = DBusWriter(endian)
    header.data += (b"l" if endian == "<" else b"B") + bytes([kind, 0, 1])
    header.write("u", len(content.data))
    header.write("u", serial)
    header.write("a(yv)", fields)
    header.align(8)
    return bytes(header.data + content.data)


def dbus_stream():
    """What bluetoothd and the bus send a BlueZ client: the Hello reply, a property change, an
    error, a call to an exported object, and one message big-endian."""
    bus = "org.freedesktop.DBus"
    characteristic = "/org/bluez/hci0/dev_00_11_22_33_44_55/service0010/char0011"
    return [
        dbus_message(2, 1, [(5, ("u", 1)), (6, ("s", ":1.7")), (7, ("s", bus))], "s", [":1.7"]),
        dbus_message(4, 2, [(1, ("o", characteristic)), (2, ("s", bus + ".Properties")), (3, ("s", "PropertiesChanged")),
                            (7, ("s", ":1.2"))], "sa{sv}as",
                     ["org.bluez.GattCharacteristic1", [("Value", ("ay", [1, 2, 3])), ("Notifying", ("b", 1))], []]),
        dbus_message(3, 3, [(4, ("s", "org.bluez.Error.NotPermitted")), (5, ("u", 2)), (7, ("s", ":1.2"))], "s",
                     ["Not permitted"]),
        dbus_message(1, 4, [(1, ("o", "/org/swiftmdoc/app/service0")), (2, ("s", "org.bluez.GattCharacteristic1")),
                            (3, ("s", "WriteValue")), (7, ("s", ":1.2"))], "aya{sv}",
                     [[0x01], [("mtu", ("q", 517)), ("device", ("o", "/org/bluez/hci0/dev_00_11_22_33_44_55"))]]),
        dbus_message(2, 5, [(5, ("u", 3)), (7, ("s", bus))], "a{oa{sa{sv}}}",
                     [[("/org/bluez/hci0", [("org.bluez.Adapter1", [("Powered", ("b", 1)), ("Address", ("s", "00:11:22:33:44:55"))])])]],
                     endian=">"),
    ]


def vpicc_stream():
    """What vpcd sends a virtual card (vsmartcard's vpcd.c): power on, get ATR, the commands of an
    18013-5 NFC engagement and data retrieval (short and extended), reset, power off."""
    controls = [b"\x01", b"\x04", b"\x02", b"\x00"]
    commands = [
        bytes.fromhex("00a4040007d276000085010100"),                     # SELECT NDEF application
        bytes.fromhex("00a4000c02e103"),                                 # SELECT capability container
        bytes.fromhex("00b000000f"),                                     # READ BINARY
        bytes.fromhex("00a4040007a000000248040000"),                     # SELECT 18013-5 data retrieval
        bytes.fromhex("10c30000ff") + bytes(255),                        # ENVELOPE, chained
        b"\x00\xc3\x00\x00\x00\x01\x00" + bytes(256) + b"\x00\x00",      # ENVELOPE, extended
        bytes.fromhex("00c0000000"),                                     # GET RESPONSE
    ]
    return [framed(message) for message in controls[:2] + commands + controls[2:]]


# NFC engagement as Multipaz's tests exchange it (openwallet-foundation/multipaz,
# MdocNfcEngagementHelperTest.kt): the records and messages, as facts.
MULTIPAZ_DE = ("a20063312e30018201d818584ba4010220012158207104f7e2c2e95ca76482c0c963d454b7e5d053c5b59ce89d00ff7c7d7ab6ff7d"
               "225820f442821292c2453ec67c75233ea56e1734c211ae26b259fdf232b5b3d82b1ba2")
MULTIPAZ_STATIC_HS = bytes.fromhex(
    "91021f487315910209616301013001046d646f6351020b616301036e666301046d646f631c1e580469736f2e6f72673a31383031333a6465"
    "76696365656e676167656d656e746d646f63" + MULTIPAZ_DE + "1a2015016170706c69636174696f6e2f766e642e626c7565746f6f74"
    "682e6c652e6f6f6230021c031107b66eef55ee782ea2514bb6a1c42ad5b35c110a0369736f2e6f72673a31383031333a6e66636e6663010301"
    "ffff0402010000")
MULTIPAZ_HR = bytes.fromhex(
    "910215487215910204616301013000510206616301036e6663001c1e060a69736f2e6f72673a31383031333a726561646572656e6761676"
    "56d656e746d646f63726561646572a10063312e301a2015016170706c69636174696f6e2f766e642e626c7565746f6f74682e6c652e6f6f62"
    "30021c031107b66eef55ee782ea2514bb6a1c42ad5b35c110a0369736f2e6f72673a31383031333a6e66636e6663010301ffff0402010000")
MULTIPAZ_TP = bytes.fromhex("d1021a5470101375726e3a6e66633a736e3a68616e646f76657200000fffff")
MULTIPAZ_TS = bytes.fromhex("d1021454731375726e3a6e66633a736e3a68616e646f766572")
MULTIPAZ_TE = bytes.fromhex("d10201546500")
STATIC_CC = bytes.fromhex("000f207fff7fff0406e1047fff00ff")
NEGOTIATED_CC = bytes.fromhex("000f207fff7fff0406e1047fff0000")
OK = bytes.fromhex("9000")


def apdu(cla, ins, p1, p2, data=b"", le=None):
    """A command APDU, short or extended as ISO/IEC 7816-4 5.1 chooses."""
    extended = len(data) > 255 or (le is not None and le > 256)
    body = b""
    if data:
        body += (b"\x00" + struct.pack(">H", len(data)) if extended else bytes([len(data)])) + data
    if le is not None:
        if extended:
            body += (b"" if data else b"\x00") + struct.pack(">H", le % 65536)
        else:
            body += bytes([le % 256])
    return bytes([cla, ins, p1, p2]) + body


def do53(message):
    """A message in the data object 53 of 18013-5 8.3.3.1.2."""
    n = len(message)
    length = bytes([n]) if n < 0x80 else b"\x81" + bytes([n]) if n < 0x100 else b"\x82" + struct.pack(">H", n)
    return b"\x53" + length + message


def nfc_commands():
    """What a reader sends a card: negotiated handover, then a data retrieval exchange in chunks."""
    select_ndef = apdu(0, 0xA4, 4, 0, bytes.fromhex("d2760000850101"), 256)
    ndef = [select_ndef, apdu(0, 0xA4, 0, 0x0C, b"\xe1\x03"), apdu(0, 0xB0, 0, 0, le=15), apdu(0, 0xA4, 0, 0x0C, b"\xe1\x04"),
            apdu(0, 0xB0, 0, 0, le=2), apdu(0, 0xB0, 0, 2, le=31),
            apdu(0, 0xD6, 0, 0, struct.pack(">H", len(MULTIPAZ_TS)) + MULTIPAZ_TS), apdu(0, 0xB0, 0, 0, le=2), apdu(0, 0xB0, 0, 2, le=6),
            apdu(0, 0xD6, 0, 0, b"\x00\x00"), apdu(0, 0xD6, 0, 2, MULTIPAZ_HR), apdu(0, 0xD6, 0, 0, struct.pack(">H", len(MULTIPAZ_HR))),
            apdu(0, 0xB0, 0, 0, le=2), apdu(0, 0xB0, 0, 2, le=200)]
    request = do53(vector("session_establishment"))
    chunks = [request[i:i + 255] for i in range(0, len(request), 255)]
    transfer = [apdu(0, 0xA4, 4, 0, bytes.fromhex("a0000002480400"))]
    transfer += [apdu(0x10, 0xC3, 0, 0, chunk) for chunk in chunks[:-1]] + [apdu(0, 0xC3, 0, 0, chunks[-1], 256)]
    transfer += [apdu(0, 0xC0, 0, 0, le=256)] * 4
    return ndef, transfer


def online_message_seeds():
    """FuzzOnlineMessages: a selector byte, then what the reader of that selector takes: the
    EncryptionInfo of the EU age verification request example (DCAPITests), an EncryptedResponse
    as CBOR and as its response object, an Annex C request of Annex D's DeviceRequest, an Annex C
    state, an OpenID4VP 1.0 request in dc_api.jwt (the key of the specification's section 8.3
    example) and in direct_post, responses as JSON, as a form and the section 8.3 example JWE,
    and an OpenID4VP state of each kind."""
    import json
    b64url = lambda data: base64.urlsafe_b64encode(data).rstrip(b"=").decode()
    info_text = ("gmVkY2FwaaJlbm9uY2VQtJvGiCZ0egQII8fQgu960HJyZWNpcGllbnRQdWJsaWNLZXmkAQIgASFYIMmliVBWgs8KKpAychO3py0Eqagows-"
                 "CrraFX1rVOniXIlggIMvYr_x55AY4LKiWZLHBlQJmX1R9Y5BkUfnuSddAmyE")
    info = base64.urlsafe_b64decode(info_text + "=" * (-len(info_text) % 4))
    enc = bytes([4]) + bytes(range(1, 65))
    response = (bytes.fromhex("8265") + b"dcapi" + bytes.fromhex("a263") + b"enc" + bytes.fromhex("5841") + enc
                + bytes.fromhex("6a") + b"cipherText" + bytes.fromhex("5820") + bytes(range(32)))
    response_json = json.dumps({"response": b64url(response)}).encode()
    annex_c_request = json.dumps({"deviceRequest": b64url(vector("device_request")), "encryptionInfo": info_text}).encode()
    # The state's EncryptionInfo holds the public key of the section 8.3 example's private key.
    unb64url = lambda text: base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    nonce = bytes(range(16))
    state_info = (bytes.fromhex("8265") + b"dcapi" + bytes.fromhex("a265") + b"nonce" + bytes.fromhex("50") + nonce
                  + bytes.fromhex("72") + b"recipientPublicKey" + bytes.fromhex("a40102200121 5820".replace(" ", ""))
                  + unb64url("YO4epjifD-KWeq1sL2tNmm36BhXnkJ0He-WqMYrp9Fk") + bytes.fromhex("225820")
                  + unb64url("Hekpm0zfK7C-YccH5iBjcIXgf6YdUvNUac_0At55Okk"))
    annex_c_state = json.dumps({
        "format": "swift-mdoc ISO/IEC TS 18013-7 Annex C request state", "origin": "https://verifier.example",
        "nonce": b64url(nonce), "encryptionInfo": b64url(state_info),
        "recipientPrivateKey": "Et-3ce0omz8_TuZ96Df9lp0GAaaDoUnDe6X-CRO7Aww",
        "created": "2021-01-01T00:00:00Z", "expires": "2021-01-01T00:05:00Z"}).encode()
    dcql = {"credentials": [{"id": "mdl", "format": "mso_mdoc", "meta": {"doctype_value": "org.iso.18013.5.1.mDL"},
                             "claims": [{"path": ["org.iso.18013.5.1", "age_over_18"], "intent_to_retain": False},
                                        {"path": ["org.iso.18013.5.1", "family_name"]}]}]}
    key = {"kty": "EC", "crv": "P-256", "x": "YO4epjifD-KWeq1sL2tNmm36BhXnkJ0He-WqMYrp9Fk",
           "y": "Hekpm0zfK7C-YccH5iBjcIXgf6YdUvNUac_0At55Okk", "use": "enc", "alg": "ECDH-ES", "kid": "ac"}
    jwt_request = json.dumps({"response_type": "vp_token", "response_mode": "dc_api.jwt", "nonce": "n-0S6_WzA2Mj", "dcql_query": dcql,
                              "client_metadata": {"jwks": {"keys": [key]}, "encrypted_response_enc_values_supported": ["A128GCM"],
                                                  "vp_formats_supported": {"mso_mdoc": {}}}}).encode()
    post_request = json.dumps({"response_type": "vp_token", "response_mode": "direct_post", "client_id": "redirect_uri:https://verifier.example/post",
                               "response_uri": "https://verifier.example/post", "nonce": "n-0S6_WzA2Mj", "dcql_query": dcql}).encode()
    device_response = b64url(vector("device_response"))
    vp_json = json.dumps({"vp_token": {"mdl": [device_response]}}).encode()
    vp_form = ("state=abc&vp_token=" + json.dumps({"mdl": [device_response]}).replace('"', "%22").replace(":", "%3A")
               .replace("{", "%7B").replace("}", "%7D").replace("[", "%5B").replace("]", "%5D")).encode()
    example_jwe = ("eyJhbGciOiJFQ0RILUVTIiwiZW5jIjoiQTEyOEdDTSIsImtpZCI6ImFjIiwiZXBrIjp7Imt0eSI6IkVDIiwieCI6Im5ubVZwbTNWM2piaGNhZlFhUkJr"
                   "U1ZOSGx3Wkh3dC05ck9wSnVmeVlJdWsiLCJ5IjoicjRmakRxd0p5czlxVU9QLV9iM21SNVNaRy0tQ3dPMm1pYzVWU05UWU45ZyIsImNydiI6IlAtMj"
                   "U2In19..uAYcHRUSSn2X0WPX.yVzlGSYG4qbg0bq18JcUiDRw56yVnbKR8E7S7YlEtzT00RqE3Pw5oTpUG3hdLN4taHZ9gC1kwak8JOnJgQ.1wR024_3"
                   "-qtAlx1oFIUpQQ")
    states = [
        {"format": "swift-mdoc OpenID4VP 1.0 request state", "responseMode": "dc_api", "origin": "https://verifier.example",
         "nonce": "n-0S6_WzA2Mj", "credentialIds": ["mdl"], "created": "2021-01-01T00:00:00Z", "expires": "2021-01-01T00:05:00Z"},
        {"format": "swift-mdoc OpenID4VP 1.0 request state", "responseMode": "direct_post.jwt", "clientId": "redirect_uri:https://verifier.example/post",
         "responseUri": "https://verifier.example/post", "nonce": "n-0S6_WzA2Mj", "credentialIds": ["mdl"], "encryptions": ["A128GCM"],
         "recipientPrivateKey": "Et-3ce0omz8_TuZ96Df9lp0GAaaDoUnDe6X-CRO7Aww", "created": "2021-01-01T00:00:00Z",
         "expires": "2021-01-01T00:05:00Z"},
    ]
    return ([bytes([0]) + info, bytes([1]) + response, bytes([2]) + response_json, bytes([3]) + annex_c_request,
             bytes([4]) + annex_c_state, bytes([5]) + jwt_request, bytes([5]) + post_request, bytes([6]) + vp_json,
             bytes([6]) + vp_form, bytes([6]) + json.dumps({"response": example_jwe}).encode(),
             bytes([6]) + ("response=" + example_jwe).encode()]
            + [bytes([7]) + json.dumps(state).encode() for state in states])


def main():
    vectors = sorted(name[:-4] for name in os.listdir(VECTORS) if name.endswith(".hex"))
    credential = open(os.path.join(ROOT, "Certs", "demo", "mdl.mdoc"), "rb").read()
    engagement = vector("device_engagement")
    uri = b"mdoc:" + base64.urlsafe_b64encode(engagement).rstrip(b"=")
    demo_certificates = [pem_der(f"Certs/demo/{name}.pem") for name in ("ds", "iaca", "reader", "reader-root")]

    counts = {}
    counts["FuzzCBOR"] = write("FuzzCBOR", [vector(name) for name in vectors] + [credential])
    counts["FuzzEngagement"] = write("FuzzEngagement", [engagement, vector("device_engagement_nfc"), uri])
    counts["FuzzSessionData"] = write("FuzzSessionData", [vector("session_establishment"), vector("session_data_response"),
                                                          vector("session_termination")])
    counts["FuzzHolderSession"] = write("FuzzHolderSession", [
        framed(vector("session_establishment")),
        framed(vector("session_establishment"), vector("session_termination")),
        framed(vector("session_data_response"), vector("session_termination")),
    ])
    counts["FuzzReaderSession"] = write("FuzzReaderSession", [
        framed(vector("session_data_response")),
        framed(vector("session_data_response"), vector("session_termination")),
        framed(vector("session_termination")),
    ])
    counts["FuzzDeviceRequest"] = write("FuzzDeviceRequest", [vector("device_request"), vector("items_request")])
    counts["FuzzDeviceResponse"] = write("FuzzDeviceResponse", [vector("device_response"), vector("issuer_signed")])
    sequence = att_sequence()
    counts["FuzzATT"] = write("FuzzATT", [framed(*sequence)] + [framed(pdu) for pdu in sequence])
    message = vector("session_establishment")
    chunks = [b"\x01" + message[i:i + 511] for i in range(0, len(message), 511)]
    chunks[-1] = b"\x00" + chunks[-1][1:]
    mtu_515 = struct.pack(">H", 515 - 23)
    counts["FuzzBLEReassembly"] = write("FuzzBLEReassembly", [
        mtu_515 + framed(*chunks),
        struct.pack(">H", 0) + framed(b"\x01" + message[:19], b"\x00" + message[19:38]),
        mtu_515 + framed(b"\x00" + vector("session_termination")),
    ])
    events, acl, acl_signalling = hci_stream()
    counts["FuzzHCI"] = write("FuzzHCI", [bytes([piece]) + b"".join(events) + acl + acl_signalling for piece in (0, 3, 31)]
                              + [bytes([0]) + event for event in events])
    messages = dbus_stream()
    counts["FuzzDBus"] = write("FuzzDBus", [bytes([piece]) + b"".join(messages) for piece in (0, 7, 63)]
                               + [bytes([63]) + message for message in messages])
    frames = vpicc_stream()
    counts["FuzzVPICC"] = write("FuzzVPICC", [bytes([piece]) + b"".join(frames) for piece in (0, 1, 63)]
                                + [bytes([63]) + frame for frame in frames])
    counts["FuzzCertificateChain"] = write("FuzzCertificateChain", [
        framed(vector("ds_cert")), framed(vector("ds_cert"), vector("iaca_cert")), framed(vector("reader_cert")),
        framed(vector("reader_cert"), vector("reader_root_cert")),
        framed(demo_certificates[0], demo_certificates[1]), framed(demo_certificates[2], demo_certificates[3]),
    ])
    ndef_commands, transfer_commands = nfc_commands()
    static_answers = [OK, OK, STATIC_CC + OK, OK, struct.pack(">H", len(MULTIPAZ_STATIC_HS)) + OK, MULTIPAZ_STATIC_HS + OK]
    negotiated_answers = [OK, OK, NEGOTIATED_CC + OK, OK, struct.pack(">H", len(MULTIPAZ_TP)) + OK, MULTIPAZ_TP + OK, OK,
                          struct.pack(">H", len(MULTIPAZ_TE)) + OK, MULTIPAZ_TE + OK, OK, b"\x00\xba" + OK]
    answer = do53(vector("session_data_response"))
    transfer_answers = [OK, OK, answer[:256] + b"\x61\x00", answer[256:512] + b"\x61\x00", answer[512:] + OK]
    counts["FuzzAPDU"] = write("FuzzAPDU", [
        framed(*ndef_commands), framed(*transfer_commands), framed(*ndef_commands[:6], *transfer_commands),
        framed(*static_answers), framed(*negotiated_answers), framed(*transfer_answers),
        ndef_commands[0], transfer_commands[1], apdu(0, 0xC0, 0, 0, le=65536), answer[:40],
        apdu_trace(ndef_commands[:6], static_answers),
    ])
    counts["FuzzNDEFHandover"] = write("FuzzNDEFHandover", [
        vector("nfc_handover_select"), vector("nfc_handover_request"), MULTIPAZ_STATIC_HS, MULTIPAZ_HR, MULTIPAZ_TP, MULTIPAZ_TS,
        MULTIPAZ_TE, STATIC_CC, NEGOTIATED_CC, MULTIPAZ_TP[5:], bytes.fromhex("010301ffff0402010000"),
        bytes.fromhex("021c031107b66eef55ee782ea2514bb6a1c42ad5b35c"), bytes.fromhex("01013001046d646f63"),
    ])
    tsl = os.path.join(ROOT, "Vectors", "token-status-list")
    tsl_vector = lambda name: bytes.fromhex(open(os.path.join(tsl, name + ".hex")).read().strip())
    lists = [tsl_vector(f"status_list_encoding{n}") for n in ("1", "2", "1_long", "2_long", "4_long", "8_long")]
    counts["FuzzStatusListToken"] = write("FuzzStatusListToken", [tsl_vector("status_list_cwt")] + status_list_tokens() + identifier_list_tokens()
                                          + [zlib.compress(bytes(4096), 9), zlib.compress(bytes([0xB9, 0xA3]), 9), lists[0], lists[5]])
    counts["FuzzVICAL"] = write("FuzzVICAL", vical_seeds(demo_certificates[1]))
    counts["FuzzOnline"] = write("FuzzOnline", online_seeds())
    counts["FuzzCBORText"] = write("FuzzCBORText", [text.encode() for text in CBOR_TEXT_SEEDS])
    counts["FuzzOnlineMessages"] = write("FuzzOnlineMessages", online_message_seeds())
    for target, count in counts.items():
        print(f"{target}: {count} seeds")
    total = sum(os.path.getsize(os.path.join(CORPUS, t, f)) for t in counts for f in os.listdir(os.path.join(CORPUS, t)))
    print(f"{sum(counts.values())} seeds, {total} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
