#!/usr/bin/env python3
"""An ISO/IEC 18013-5 mdoc (holder) on Bumble: an independent peer for swift-mdoc's reader.

    holder_peer.py --credential CRED.mdoc --transport tcp-client:127.0.0.1:P
                   [--mode peripheral|central] [--device-auth mac|signature] [--timeout S]
                   [--subscribe both|server2client] [--end-with-response] [--start-on-input]

Makes an ephemeral key and a DeviceEngagement offering BLE in the one mode asked, prints its
mdoc: URI as the first stdout line, then advertises its service (peripheral server mode) or
scans for the reader's and checks the reader's Ident (central client mode). It decrypts the
DeviceRequest, returns every requested element the credential holds and nothing else (the
IssuerSignedItemBytes and issuerAuth exactly as in the credential), device-authenticated with a
DeviceMac (default) or a DeviceSignature, and waits for the reader to end the session (status
20, State 0x02 or disconnection). With --end-with-response it ends the session itself in the
SessionData that carries the response, {data, status: 20} (9.1.1.4), and waits for the reader's
State 0x02 and disconnection. The credential is a swift-mdoc Credential file
(Tests/Interop/README.md): {"docType", "issuerSigned", "deviceKey" with d}.

As the GATT client (central client mode) it enables notifications of State and Server2Client, or
of Server2Client only with --subscribe server2client. With --start-on-input it prints its URI,
then waits for a line on standard input before it advertises or scans, so that a test can let
other centrals reach the reader first.

Progress goes to stderr; the last stdout line is JSON with "outcome": "presented" (exit 0) or
"failed" with "error" (exit 1).
"""

import argparse
import asyncio
import hashlib
import hmac
import sys
import uuid

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from bumble.transport import open_transport

import mdoc_peer
from mdoc_peer import PeerError, Raw, dumps, tagged
from pymdoccbor_verify_mso import parse_whole, require

PROTECTED_ES256 = cbor2.dumps({1: -7})
PROTECTED_HMAC_256 = cbor2.dumps({1: 5})


def log(text):
    print(f"holder_peer: {text}", file=sys.stderr, flush=True)


class Credential:
    """A Credential file, its IssuerSignedItemBytes and issuerAuth kept as read."""

    def __init__(self, path):
        with open(path, "rb") as handle:
            top = parse_whole(handle.read(), path)
        self.doc_type = require(top.get("docType"), 3, "docType").value
        issuer_signed = require(top.get("issuerSigned"), 5, "issuerSigned")
        self.issuer_auth = require(issuer_signed.get("issuerAuth"), 4, "issuerSigned.issuerAuth").raw
        self.items = {}
        for namespace, items in require(issuer_signed.get("nameSpaces"), 5, "issuerSigned.nameSpaces").value:
            for item in require(items, 4, f"nameSpaces[{namespace.value!r}]").value:
                content = cbor2.loads(require(item, 6, "IssuerSignedItemBytes", tag=24).value.value)
                self.items.setdefault(namespace.value, {})[content["elementIdentifier"]] = item.raw
        key = cbor2.loads(require(top.get("deviceKey"), 5, "deviceKey").raw)
        if key.get(1) != 2 or key.get(-1) != 1 or not isinstance(key.get(-4), bytes):
            raise PeerError(f"{path}: the peer signs with P-256 device keys only")
        self.device_key = ec.derive_private_key(int.from_bytes(key[-4], "big"), ec.SECP256R1())


def items_request(request_bytes):
    """(docType, {namespace: [identifier]}) of the first DocRequest (8.3.2.1.2.1)."""
    request = parse_whole(request_bytes, "DeviceRequest")
    if require(request.get("version"), 3, "DeviceRequest.version").value != "1.0":
        raise PeerError("DeviceRequest.version: \"1.0\" expected")
    doc_requests = require(request.get("docRequests"), 4, "DeviceRequest.docRequests").value
    if not doc_requests:
        raise PeerError("DeviceRequest.docRequests: empty")
    tagged_items = require(require(doc_requests[0], 5, "docRequests[0]").get("itemsRequest"), 6,
                           "docRequests[0].itemsRequest", tag=24)
    items = cbor2.loads(tagged_items.value.value)
    return items["docType"], {namespace: list(elements) for namespace, elements in items["nameSpaces"].items()}, \
        doc_requests[0].get("readerAuth") is not None


def device_response(credential, doc_type, requested, transcript, transcript_bytes, e_reader_key, device_auth):
    """DeviceResponse (8.3.2.1.2.2) with exactly the requested elements the credential has."""
    if doc_type != credential.doc_type:
        return dumps({"version": "1.0", "documentErrors": [{doc_type: 0}], "status": 0}), {}
    returned, disclosed = {}, {}
    for namespace, identifiers in requested.items():
        for identifier in identifiers:
            item = credential.items.get(namespace, {}).get(identifier)
            if item is not None:
                returned.setdefault(namespace, []).append(Raw(item))
                disclosed.setdefault(namespace, []).append(identifier)
    device_name_spaces = tagged(cbor2.dumps({}))
    authentication = tagged(dumps(["DeviceAuthentication", transcript, doc_type, Raw(device_name_spaces)]))
    if device_auth == "mac":
        # 9.1.3.5: EMacKey from the device key and EReaderKey, salted with the transcript.
        shared = credential.device_key.exchange(ec.ECDH(), e_reader_key)
        e_mac_key = HKDF(hashes.SHA256(), 32, salt=hashlib.sha256(transcript_bytes).digest(),
                         info=b"EMacKey").derive(shared)
        tag = hmac.new(e_mac_key, cbor2.dumps(["MAC0", PROTECTED_HMAC_256, b"", authentication]), hashlib.sha256).digest()
        auth = {"deviceMac": [PROTECTED_HMAC_256, {}, None, tag]}
    else:
        der = credential.device_key.sign(cbor2.dumps(["Signature1", PROTECTED_ES256, b"", authentication]),
                                         ec.ECDSA(hashes.SHA256()))
        r, s = decode_dss_signature(der)
        auth = {"deviceSignature": [PROTECTED_ES256, {}, None, r.to_bytes(32, "big") + s.to_bytes(32, "big")]}
    document = {"docType": doc_type,
                "issuerSigned": {"nameSpaces": returned, "issuerAuth": Raw(credential.issuer_auth)},
                "deviceSigned": {"nameSpaces": Raw(device_name_spaces), "deviceAuth": auth}}
    return dumps({"version": "1.0", "documents": [document], "status": 0}), disclosed


async def session(args, credential):
    e_device_key = ec.generate_private_key(ec.SECP256R1())
    service_uuid = uuid.uuid4()
    engagement, e_device_key_bytes = mdoc_peer.make_engagement(e_device_key, args.mode, service_uuid)
    print(mdoc_peer.uri(engagement), flush=True)

    if args.start_on_input:
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    async with await open_transport(args.transport) as (hci_source, hci_sink):
        device = mdoc_peer.make_device("holder-peer", hci_source, hci_sink)
        if args.mode == "peripheral":
            link = mdoc_peer.ServerLink(device, args.mode, service_uuid)
        await device.power_on()
        if args.mode == "peripheral":
            log(f"advertising {service_uuid}")
            await mdoc_peer.advertise(device, service_uuid)
            connection = await mdoc_peer.accept(device, args.timeout)
            link.connection = connection
            mdoc_peer.watch_disconnection(connection, link)
        else:
            log(f"scanning for {service_uuid}")
            connection = await mdoc_peer.find_and_connect(device, service_uuid, args.timeout)
            link = mdoc_peer.ClientLink(connection)
            mdoc_peer.watch_disconnection(connection, link)
            await link.open(args.mode, service_uuid, expected_ident=mdoc_peer.ident(e_device_key_bytes),
                            subscribe_state=args.subscribe == "both")
            log("the reader's Ident matches")
        log(f"connected to {connection.peer_address} in {args.mode} mode")

        establishment = parse_whole(await link.next_message(args.timeout), "SessionEstablishment")
        e_reader_key_item = require(establishment.get("eReaderKey"), 6, "SessionEstablishment.eReaderKey", tag=24)
        e_reader_key = mdoc_peer.public_key_from_cose(cbor2.loads(e_reader_key_item.value.value), "EReaderKey")
        transcript, transcript_bytes = mdoc_peer.session_transcript(engagement, e_reader_key_item.raw)
        cipher = mdoc_peer.SessionCipher(e_device_key, e_reader_key, transcript_bytes, reader=False)
        data = require(establishment.get("data"), 2, "SessionEstablishment.data").value
        doc_type, requested, reader_auth = items_request(cipher.open(data))
        log(f"request for {doc_type}: {requested}{' with readerAuth (not checked by this peer)' if reader_auth else ''}")
        response, disclosed = device_response(credential, doc_type, requested, transcript, transcript_bytes,
                                              e_reader_key, args.device_auth)
        session_data = {"data": cipher.seal(response)}
        if args.end_with_response:
            session_data["status"] = mdoc_peer.SESSION_TERMINATION
        await asyncio.wait_for(link.send(dumps(session_data)), args.timeout)
        log(f"sent a DeviceResponse of {len(response)} octets (ATT MTU {link.mtu})"
            f"{' ending the session with status 20' if args.end_with_response else ''}")

        # 9.1.1.4 and 8.3.3.1.1.5: the reader ends with status 20, State 0x02, or by disconnecting.
        try:
            message = cbor2.loads(await link.next_message(args.timeout))
            status = message.get("status") if isinstance(message, dict) else None
            if status != mdoc_peer.SESSION_TERMINATION:
                raise PeerError(f"after the response the reader sent SessionData with status {status}")
            ended = "status 20"
        except PeerError as error:
            if "State 0x02" in str(error):
                ended = "State 0x02"
            elif str(error).startswith("disconnected"):
                ended = "disconnection"
            else:
                raise
        if ended != "disconnection":
            await mdoc_peer.disconnect(connection)
    return {"outcome": "presented", "mode": args.mode, "mtu": link.mtu, "deviceAuthentication": args.device_auth,
            "readerAuth": reader_auth, "disclosed": disclosed, "responseBytes": len(response), "ended": ended}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("--credential", required=True, help="a swift-mdoc Credential file (P-256 device key)")
    parser.add_argument("--transport", required=True, help="Bumble transport, e.g. tcp-client:127.0.0.1:PORT")
    parser.add_argument("--mode", choices=["peripheral", "central"], default="peripheral")
    parser.add_argument("--device-auth", choices=["mac", "signature"], default="mac")
    parser.add_argument("--timeout", type=float, default=30)
    parser.add_argument("--subscribe", choices=["both", "server2client"], default="both",
                        help="the notifications the GATT client enables (central client mode)")
    parser.add_argument("--end-with-response", action="store_true",
                        help="send status 20 in the SessionData that carries the response")
    parser.add_argument("--start-on-input", action="store_true",
                        help="wait for a line on standard input before advertising or scanning")
    args = parser.parse_args()
    return mdoc_peer.run(lambda: session(args, Credential(args.credential)), 4 * args.timeout)


if __name__ == "__main__":
    sys.exit(main())
