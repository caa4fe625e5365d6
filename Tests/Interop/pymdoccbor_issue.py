#!/usr/bin/env python3
"""Issue an mdoc with pymdoccbor and write it as a swift-mdoc Credential file.

Interop peer for swift-mdoc (see Tests/Interop/README.md). The mdoc is built
by pymdoccbor's public API (pymdoccbor.mdoc.issuer.MdocCborIssuer); this script
only prepares the inputs and wraps pymdoccbor's IssuerSigned into the
Credential map that swift-mdoc reads and writes:

    Credential = {
      "docType": tstr,
      "deviceKey": COSE_Key,             ; {1: 2, -1: crv, -2: x, -3: y, -4: d}
      "issuerSigned": IssuerSigned       ; as pymdoccbor encoded it
    }

Usage:
    pymdoccbor_issue.py --ds-key DS.pem --ds-cert DS-CERT.pem \
        --device-key DEVICE.pem --doctype org.iso.18013.5.1.mDL \
        --data DATA.json --out CRED.mdoc \
        [--issuance-date YYYY-MM-DD] [--expiry-date YYYY-MM-DD] \
        [--chain EXTRA-CERT.pem ...] [--out-response RESPONSE.cbor]

Data JSON: {"namespace": {"element": value}}. JSON values map to CBOR as
usual; special forms (an object with exactly one key):
    {"$bstr": "hex"}          -> bstr
    {"$full-date": "Y-M-D"}   -> #6.1004(tstr)   (RFC 8943 full-date)
    {"$tdate": "...Z"}        -> #6.0(tstr)      (RFC 8949 date/time)
pymdoccbor itself tags the elements named birth_date, expiry_date,
issue_date and issuance_date (also one level down, e.g. inside
driving_privileges entries) with tag 1004; give those as plain "Y-M-D"
strings (a "$full-date" marker on them is turned into the plain string so the
value is not tagged twice).

Exit status: 0 on success, 1 with a message on any error.
"""

import argparse
import datetime
import json
import os
import sys

import cbor2
from cryptography import x509
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from pymdoccbor.mdoc.issuer import MdocCborIssuer
from pymdoccbor.settings import CBORTAGS_ATTR_MAP

# COSE curve identifiers (RFC 9053 table 18) and coordinate sizes per curve.
COSE_CURVES = {
    "secp256r1": (1, 32, "P_256", "ES256"),
    "secp384r1": (2, 48, "P_384", "ES384"),
    "secp521r1": (3, 66, "P_521", "ES512"),
}
# Element identifiers pymdoccbor tags with 1004 by itself (pymdoccbor.settings).
AUTO_TAGGED = frozenset(CBORTAGS_ATTR_MAP)
# pymdoccbor treats a list-valued element as a list of maps, except this one.
PYMDOCCBOR_LIST_EXCEPTION = "nationality"


class IssueError(Exception):
    """An input the script cannot turn into an mdoc."""


def load_private_key(path, role):
    with open(path, "rb") as handle:
        data = handle.read()
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except ValueError as error:
        raise IssueError(f"{role} key {path}: not a PEM private key ({error})") from error
    if not isinstance(key, ec.EllipticCurvePrivateKey) or key.curve.name not in COSE_CURVES:
        raise IssueError(f"{role} key {path}: must be an EC key on P-256, P-384 or P-521")
    return key


def cose_key_map(private_key, include_private):
    """COSE_Key (RFC 9052 section 7, RFC 9053 section 7.1.1) as an int-keyed dict."""
    crv, size, _, _ = COSE_CURVES[private_key.curve.name]
    numbers = private_key.private_numbers()
    key = {
        1: 2,
        -1: crv,
        -2: numbers.public_numbers.x.to_bytes(size, "big"),
        -3: numbers.public_numbers.y.to_bytes(size, "big"),
    }
    if include_private:
        key[-4] = numbers.private_value.to_bytes(size, "big")
    return key


def pymdoccbor_signing_key(private_key):
    """The DS key in the dict form pycose's CoseKey.from_dict accepts."""
    _, size, curve, alg = COSE_CURVES[private_key.curve.name]
    numbers = private_key.private_numbers()
    return {
        "KTY": "EC2",
        "CURVE": curve,
        "ALG": alg,
        "D": numbers.private_value.to_bytes(size, "big"),
        "X": numbers.public_numbers.x.to_bytes(size, "big"),
        "Y": numbers.public_numbers.y.to_bytes(size, "big"),
    }, alg


def convert(value, where, auto_tagged, children_auto_tagged):
    """JSON value -> the Python value pymdoccbor encodes with cbor2.

    auto_tagged: pymdoccbor will tag this value with 1004 itself.
    children_auto_tagged: pymdoccbor tags this map's auto-tagged keys (it does
    so one level below an element, in a map or in the maps of a list).
    """
    if isinstance(value, dict):
        if len(value) == 1:
            (marker, content), = value.items()
            if marker == "$bstr":
                try:
                    return bytes.fromhex(content)
                except (TypeError, ValueError) as error:
                    raise IssueError(f"{where}: $bstr needs a hex string") from error
            if marker == "$full-date":
                if not isinstance(content, str):
                    raise IssueError(f"{where}: $full-date needs a string")
                datetime.date.fromisoformat(content)
                return content if auto_tagged else cbor2.CBORTag(1004, content)
            if marker == "$tdate":
                if not isinstance(content, str):
                    raise IssueError(f"{where}: $tdate needs a string")
                return cbor2.CBORTag(0, content)
            if marker.startswith("$"):
                raise IssueError(f"{where}: unknown marker {marker}")
        return {k: convert(v, f"{where}.{k}", children_auto_tagged and k in AUTO_TAGGED, False)
                for k, v in value.items()}
    if isinstance(value, list):
        return [convert(v, f"{where}[{i}]", False, children_auto_tagged)
                for i, v in enumerate(value)]
    return value


def prepare_data(data):
    if not isinstance(data, dict) or not data:
        raise IssueError("data JSON: top level must be a non-empty object of namespaces")
    prepared = {}
    for namespace, elements in data.items():
        if not isinstance(elements, dict) or not elements:
            raise IssueError(f"data JSON: namespace {namespace} must be a non-empty object")
        prepared[namespace] = {}
        for identifier, value in elements.items():
            where = f"{namespace}.{identifier}"
            if (isinstance(value, list) and identifier != PYMDOCCBOR_LIST_EXCEPTION
                    and not all(isinstance(v, dict) for v in value)):
                raise IssueError(f"{where}: pymdoccbor 1.4 only accepts lists of objects "
                                 f"(except for '{PYMDOCCBOR_LIST_EXCEPTION}')")
            auto_tagged = identifier in AUTO_TAGGED
            children_auto_tagged = not auto_tagged and identifier != PYMDOCCBOR_LIST_EXCEPTION
            prepared[namespace][identifier] = convert(value, where, auto_tagged,
                                                      children_auto_tagged)
    return prepared


def encode_credential(doctype, issuer_signed_bytes, device_key):
    """Credential map with the IssuerSigned bytes embedded unchanged (RFC 8949 3.1)."""
    # Keys in RFC 8949 4.2.1 order, as swift-mdoc's Credential writes them.
    return (b"\xa3"
            + cbor2.dumps("docType") + cbor2.dumps(doctype)
            + cbor2.dumps("deviceKey") + cbor2.dumps(device_key)
            + cbor2.dumps("issuerSigned") + issuer_signed_bytes)


def issue(args):
    ds_key = load_private_key(args.ds_key, "document signer")
    device_key = load_private_key(args.device_key, "device")
    with open(args.ds_cert, "rb") as handle:
        ds_cert = x509.load_pem_x509_certificate(handle.read())
    # pymdoccbor signs with whatever key it is given and puts the certificate
    # in x5chain without comparing them; refuse a mismatch here.
    if ds_cert.public_key().public_numbers() != ds_key.public_key().public_numbers():
        raise IssueError(f"{args.ds_cert} does not certify the key in {args.ds_key}")
    with open(args.data, "r", encoding="utf-8") as handle:
        data = prepare_data(json.load(handle))

    today = datetime.datetime.now(datetime.timezone.utc).date()
    validity = {
        "issuance_date": args.issuance_date or today.isoformat(),
        "expiry_date": args.expiry_date or (today + datetime.timedelta(days=365)).isoformat(),
    }
    signing_key, alg = pymdoccbor_signing_key(ds_key)
    issuer = MdocCborIssuer(private_key=signing_key, alg=alg)
    response = issuer.new(
        data=data,
        doctype=args.doctype,
        validity=validity,
        devicekeyinfo=cose_key_map(device_key, include_private=False),
        x509_chain=[args.ds_cert] + (args.chain or []),
    )

    # pymdoccbor's own encoding of its result (MdocCborIssuer.dump, canonical
    # cbor2). The IssuerSigned inside it is encoded the same way; take those
    # bytes and check they occur verbatim in pymdoccbor's output.
    response_bytes = issuer.dump()
    issuer_signed = response["documents"][0]["issuerSigned"]
    issuer_signed_bytes = cbor2.dumps(issuer_signed, canonical=True)
    if issuer_signed_bytes not in response_bytes:
        raise IssueError("IssuerSigned bytes differ from pymdoccbor's own encoding")

    credential = encode_credential(args.doctype, issuer_signed_bytes,
                                   cose_key_map(device_key, include_private=True))
    # The credential holds the device private key: created 0600, as mdoc-holder requires.
    descriptor = os.open(args.out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(descriptor, 0o600)
    with os.fdopen(descriptor, "wb") as handle:
        handle.write(credential)
    if args.out_response:
        with open(args.out_response, "wb") as handle:
            handle.write(response_bytes)
    count = sum(len(items) for items in issuer_signed["nameSpaces"].values())
    print(f"issued {args.doctype} with {count} elements: {args.out} ({len(credential)} bytes)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ds-key", required=True, help="document signer private key (PEM)")
    parser.add_argument("--ds-cert", required=True, help="document signer certificate (PEM)")
    parser.add_argument("--chain", action="append",
                        help="further certificate (PEM) for x5chain after the DS certificate")
    parser.add_argument("--device-key", required=True,
                        help="device private key (PEM, PKCS#8 or SEC1; P-256/P-384/P-521)")
    parser.add_argument("--doctype", required=True)
    parser.add_argument("--data", required=True, help="JSON {namespace: {element: value}}")
    parser.add_argument("--out", required=True, help="Credential file to write")
    parser.add_argument("--issuance-date", help="YYYY-MM-DD (default today, UTC)")
    parser.add_argument("--expiry-date", help="YYYY-MM-DD (default today + 365 days)")
    parser.add_argument("--out-response",
                        help="also write pymdoccbor's own output (DeviceResponse-like map)")
    args = parser.parse_args()
    try:
        issue(args)
    except (IssueError, OSError, ValueError, TypeError) as error:
        print(f"pymdoccbor_issue: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
