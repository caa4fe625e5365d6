#!/usr/bin/env python3
"""Writes the seed corpus of every fuzz target into FuzzTesting/Corpus/<target>/.

Seeds come from the ISO/IEC 18013-5 Annex D vectors (Vectors/), from what the project generates
(the demo credential and PKI in Certs/demo), and from the protocol sequences a peer sends (a GATT
client's discovery over ATT, a controller's HCI events and ACL data). Targets that take several
messages read them length-prefixed (two big-endian octets), as FuzzSupport's FuzzInput.parts does.
Run from anywhere: python3 FuzzTesting/make-corpus.py
"""

import base64
import hashlib
import os
import struct
import sys
import uuid

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


def write(target, seeds):
    folder = os.path.join(CORPUS, target)
    os.makedirs(folder, exist_ok=True)
    for seed in seeds:
        name = hashlib.sha1(seed).hexdigest()
        with open(os.path.join(folder, name), "wb") as file:
            file.write(seed)
    return len(seeds)


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
    counts["FuzzCertificateChain"] = write("FuzzCertificateChain", [
        framed(vector("ds_cert")), framed(vector("ds_cert"), vector("iaca_cert")), framed(vector("reader_cert")),
        framed(vector("reader_cert"), vector("reader_root_cert")),
        framed(demo_certificates[0], demo_certificates[1]), framed(demo_certificates[2], demo_certificates[3]),
    ])
    for target, count in counts.items():
        print(f"{target}: {count} seeds")
    total = sum(os.path.getsize(os.path.join(CORPUS, t, f)) for t in counts for f in os.listdir(os.path.join(CORPUS, t)))
    print(f"{sum(counts.values())} seeds, {total} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
