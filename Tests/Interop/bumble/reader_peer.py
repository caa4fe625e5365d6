#!/usr/bin/env python3
"""An ISO/IEC 18013-5 mdoc reader on Bumble: an independent peer for swift-mdoc's holder.

    reader_peer.py URI --transport tcp-client:127.0.0.1:P --trust IACA.pem
                   [--mode peripheral|central] [--elements NS:ID,...] [--doctype T]
                   [--timeout S] [--end status|state] [--subscribe both|server2client]
                   [--drop-first N]

Reads the mdoc: URI, connects over BLE through a Bumble controller in the mode asked (default:
peripheral server mode when offered), sends an encrypted DeviceRequest, decrypts the
DeviceResponse and verifies it on the bytes received: the MSO signature and the DS certificate
against the IACA (pymdoccbor_verify_mso.py's own checks), every returned item's digest, the
device authentication (DeviceSignature or DeviceMac over DeviceAuthenticationBytes with this
session's transcript), and that nothing was returned that was not requested. Then it ends the
session with SessionData status 20 and State 0x02 (or State 0x02 only with --end state). As the
GATT client (peripheral server mode) it enables notifications of State and Server2Client, or of
Server2Client only with --subscribe server2client. As the GATT server (central client mode) it
ends the first N links at once with --drop-first N, as a phone's link can drop just after it is
made: the mdoc has to connect again.

Progress goes to stderr; the last stdout line is JSON with "outcome": "verified" (exit 0) or
"failed" with "error" (exit 1).
"""

import argparse
import asyncio
import datetime
import hashlib
import hmac
import sys

import cbor2
from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from bumble.transport import open_transport

import mdoc_peer
from mdoc_peer import PeerError, Raw, dumps, tagged
from pymdoccbor_verify_mso import check_certificate, check_mso, check_signature, parse_whole, require

MDL = "org.iso.18013.5.1.mDL"
DEFAULT_ELEMENTS = ["org.iso.18013.5.1:family_name", "org.iso.18013.5.1:given_name",
                    "org.iso.18013.5.1:birth_date", "org.iso.18013.5.1:portrait",
                    "org.iso.18013.5.1:age_over_18"]
COSE_ES256 = -7
COSE_HMAC_256 = 5  # RFC 9053 table 7: HMAC 256/256


def log(text):
    print(f"reader_peer: {text}", file=sys.stderr, flush=True)


def device_request(doc_type, elements):
    """DeviceRequest (8.3.2.1.2.1) for `elements` ("namespace:identifier"), without reader auth."""
    name_spaces = {}
    for element in elements:
        namespace, _, identifier = element.rpartition(":")
        if not namespace or not identifier:
            raise PeerError(f"--elements: {element!r} is not NAMESPACE:IDENTIFIER")
        name_spaces.setdefault(namespace, {})[identifier] = False
    items_request = {"docType": doc_type, "nameSpaces": name_spaces}
    return dumps({"version": "1.0", "docRequests": [{"itemsRequest": Raw(tagged(cbor2.dumps(items_request)))}]}), name_spaces


def element_summary(value):
    """A JSON-friendly view of an element value."""
    if isinstance(value, bytes):
        return {"bstr": len(value), "sha256": hashlib.sha256(value).hexdigest()}
    if isinstance(value, cbor2.CBORTag):
        return element_summary(value.value)
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): element_summary(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [element_summary(v) for v in value]
    return value


def verify_device_authentication(document, mso, transcript, e_reader_key, session_transcript_bytes, where):
    """9.1.3: DeviceSignature or DeviceMac over DeviceAuthenticationBytes, detached."""
    device_signed = require(document.get("deviceSigned"), 5, f"{where}.deviceSigned")
    name_spaces = require(device_signed.get("nameSpaces"), 6, f"{where}.deviceSigned.nameSpaces", tag=24)
    device_auth = require(device_signed.get("deviceAuth"), 5, f"{where}.deviceSigned.deviceAuth")
    doc_type = require(document.get("docType"), 3, f"{where}.docType").value
    authentication = tagged(dumps(["DeviceAuthentication", transcript, doc_type, Raw(name_spaces.raw)]))
    device_key = mdoc_peer.public_key_from_cose(
        cbor2.loads(require(require(mso.get("deviceKeyInfo"), 5, "MSO.deviceKeyInfo").get("deviceKey"), 5,
                            "MSO.deviceKeyInfo.deviceKey").raw), "MSO deviceKey")
    signature, mac = device_auth.get("deviceSignature"), device_auth.get("deviceMac")
    cose = require(signature or mac, 4, f"{where}.deviceAuth")
    if len(cose.value) != 4:
        raise PeerError(f"{where}.deviceAuth: a COSE structure of 4 elements expected")
    protected, _, payload, tag = cose.value
    if payload.major != 7 or payload.value is not None:
        raise PeerError(f"{where}.deviceAuth: the payload must be detached (null)")
    protected_bytes = require(protected, 2, f"{where}.deviceAuth protected").value
    algorithm = parse_whole(protected_bytes, "protected header").get(1)
    if signature is not None:
        if algorithm is None or algorithm.value != COSE_ES256:
            raise PeerError(f"{where}.deviceSignature: alg must be ES256 for a P-256 device key")
        raw = require(tag, 2, f"{where}.deviceSignature signature").value
        if len(raw) != 64:
            raise PeerError(f"{where}.deviceSignature: 64 octets expected, got {len(raw)}")
        der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
        try:
            device_key.verify(der, cbor2.dumps(["Signature1", protected_bytes, b"", authentication]),
                              ec.ECDSA(hashes.SHA256()))
        except InvalidSignature as error:
            raise PeerError(f"{where}.deviceSignature: not valid for the MSO device key") from error
        return "signature"
    if algorithm is None or algorithm.value != COSE_HMAC_256:
        raise PeerError(f"{where}.deviceMac: alg must be HMAC 256/256 (5)")
    shared = e_reader_key.exchange(ec.ECDH(), device_key)
    e_mac_key = HKDF(hashes.SHA256(), 32, salt=hashlib.sha256(session_transcript_bytes).digest(),
                     info=b"EMacKey").derive(shared)
    expected = hmac.new(e_mac_key, cbor2.dumps(["MAC0", protected_bytes, b"", authentication]), hashlib.sha256).digest()
    if not hmac.compare_digest(expected, require(tag, 2, f"{where}.deviceMac tag").value):
        raise PeerError(f"{where}.deviceMac: the tag does not match EMacKey")
    return "mac"


def verify_response(response, transcript, e_reader_key, session_transcript_bytes, iaca, requested, doc_type):
    """Everything the peer checks of a DeviceResponse; a summary for the JSON line."""
    top = parse_whole(response, "DeviceResponse")
    if require(top.get("version"), 3, "DeviceResponse.version").value != "1.0":
        raise PeerError("DeviceResponse.version: \"1.0\" expected")
    status = require(top.get("status"), 0, "DeviceResponse.status").value
    if status != 0:
        raise PeerError(f"DeviceResponse.status {status}")
    documents = require(top.get("documents"), 4, "DeviceResponse.documents").value
    if len(documents) != 1:
        raise PeerError(f"DeviceResponse: one document expected, got {len(documents)}")
    document = require(documents[0], 5, "documents[0]")
    if require(document.get("docType"), 3, "documents[0].docType").value != doc_type:
        raise PeerError(f"documents[0].docType is not {doc_type}")
    issuer_signed = require(document.get("issuerSigned"), 5, "documents[0].issuerSigned")
    ds_certificate, payload = check_signature(require(issuer_signed.get("issuerAuth"), 4, "issuerAuth"), "issuerAuth")
    now = datetime.datetime.now(datetime.timezone.utc)
    check_certificate(ds_certificate, iaca, now, "issuerAuth")
    mso, digests = check_mso(payload, doc_type, issuer_signed.get("nameSpaces"), now, "documents[0].issuerSigned")
    device_authentication = verify_device_authentication(
        document, mso, transcript, e_reader_key, session_transcript_bytes, "documents[0]")
    elements = {}
    for namespace_key, items in issuer_signed.get("nameSpaces").value:
        namespace = namespace_key.value
        for item in items.value:
            content = cbor2.loads(item.value.value)
            identifier = content["elementIdentifier"]
            if identifier not in requested.get(namespace, {}):
                raise PeerError(f"{namespace}:{identifier} was returned but not requested")
            elements.setdefault(namespace, {})[identifier] = element_summary(content["elementValue"])
    return {"docType": doc_type, "digestsChecked": digests, "deviceAuthentication": device_authentication,
            "elements": elements}


async def session(args):
    engagement = mdoc_peer.Engagement(mdoc_peer.engagement_from_uri(args.uri))
    mode = args.mode or ("peripheral" if "peripheral" in engagement.ble else "central")
    if mode not in engagement.ble:
        raise PeerError(f"the engagement does not offer {mode} mode (it offers {', '.join(engagement.ble)})")
    service_uuid = engagement.ble[mode]
    with open(args.trust, "rb") as handle:
        iaca = x509.load_pem_x509_certificate(handle.read())
    e_reader_key = ec.generate_private_key(ec.SECP256R1())
    e_reader_key_bytes = tagged(cbor2.dumps(mdoc_peer.cose_key(e_reader_key.public_key())))
    transcript, transcript_bytes = mdoc_peer.session_transcript(engagement.bytes, e_reader_key_bytes)
    cipher = mdoc_peer.SessionCipher(e_reader_key, engagement.e_device_key, transcript_bytes, reader=True)
    request, requested = device_request(args.doctype, args.elements.split(",") if args.elements else DEFAULT_ELEMENTS)

    async with await open_transport(args.transport) as (hci_source, hci_sink):
        device = mdoc_peer.make_device("reader-peer", hci_source, hci_sink)
        if mode == "central":
            link = mdoc_peer.ServerLink(device, mode, service_uuid, mdoc_peer.ident(engagement.e_device_key_bytes))
        await device.power_on()
        if mode == "peripheral":
            log(f"scanning for {service_uuid}")
            connection = await mdoc_peer.find_and_connect(device, service_uuid, args.timeout)
            link = mdoc_peer.ClientLink(connection)
            mdoc_peer.watch_disconnection(connection, link)
            await link.open(mode, service_uuid, subscribe_state=args.subscribe == "both")
        else:
            log(f"advertising {service_uuid} with Ident {mdoc_peer.ident(engagement.e_device_key_bytes).hex()}")
            for _ in range(args.drop_first):
                await mdoc_peer.advertise(device, service_uuid)
                dropped = await mdoc_peer.accept(device, args.timeout)
                log(f"ending the link of {dropped.peer_address} at once")
                await mdoc_peer.disconnect(dropped)
            await mdoc_peer.advertise(device, service_uuid)
            connection = await mdoc_peer.accept(device, args.timeout)
            link.connection = connection
            mdoc_peer.watch_disconnection(connection, link)
        log(f"connected to {connection.peer_address} in {mode} mode")

        establishment = dumps({"eReaderKey": Raw(e_reader_key_bytes), "data": cipher.seal(request)})
        await asyncio.wait_for(link.send(establishment), args.timeout)
        log(f"sent SessionEstablishment ({len(establishment)} octets, ATT MTU {link.mtu})")
        reply = cbor2.loads(await link.next_message(args.timeout))
        if not isinstance(reply, dict) or not isinstance(reply.get("data"), bytes):
            raise PeerError(f"SessionData without data (status {reply.get('status') if isinstance(reply, dict) else '?'})")
        response = cipher.open(reply["data"])
        log(f"received a DeviceResponse of {len(response)} octets")
        try:
            result = verify_response(response, transcript, e_reader_key, transcript_bytes, iaca, requested, args.doctype)
        finally:
            if args.end == "status":
                await link.send(dumps({"status": mdoc_peer.SESSION_TERMINATION}))
            await link.end()
    return {"outcome": "verified", "mode": mode, "mtu": link.mtu, "responseBytes": len(response), **result}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("uri", help="the holder's mdoc: URI")
    parser.add_argument("--transport", required=True, help="Bumble transport, e.g. tcp-client:127.0.0.1:PORT")
    parser.add_argument("--trust", required=True, help="the IACA certificate (PEM)")
    parser.add_argument("--mode", choices=["peripheral", "central"])
    parser.add_argument("--doctype", default=MDL)
    parser.add_argument("--elements", help="NAMESPACE:IDENTIFIER,... (default: five mDL elements)")
    parser.add_argument("--timeout", type=float, default=30)
    parser.add_argument("--end", choices=["status", "state"], default="status")
    parser.add_argument("--subscribe", choices=["both", "server2client"], default="both",
                        help="the notifications the GATT client enables (peripheral server mode)")
    parser.add_argument("--drop-first", type=int, default=0,
                        help="end the first N links at once (central client mode)")
    args = parser.parse_args()
    return mdoc_peer.run(lambda: session(args), 4 * args.timeout)


if __name__ == "__main__":
    sys.exit(main())
