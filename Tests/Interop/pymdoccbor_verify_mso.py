#!/usr/bin/env python3
"""Verify the issuer data (MSO) of an mdoc with pymdoccbor and an independent check.

Interop peer for swift-mdoc (see Tests/Interop/README.md).

Usage:
    pymdoccbor_verify_mso.py FILE [--iaca IACA.pem] [--at 2025-01-01T00:00:00Z]

FILE is one of (binary CBOR, or the same as hex text):
  * a swift-mdoc Credential {"docType", "issuerSigned", "deviceKey"},
  * an IssuerSigned {"nameSpaces", "issuerAuth"},
  * a DeviceResponse {"version", "documents": [...]} (every document is checked).

For every IssuerSigned two verifications run, and both must pass:
  1. pymdoccbor: MsoVerifier(issuerAuth).verify_signature(trusted roots) and
     MsoVerifier.verify_element_hashes(nameSpaces).
  2. This script, on the exact bytes of the file (ISO/IEC 18013-5 9.1.2.4,
     9.3.1): COSE_Sign1 ES256/384/512 signature over Sig_structure with the DS
     certificate from x5chain; MobileSecurityObjectBytes is #6.24(bstr);
     docType matches; every IssuerSignedItemBytes hashed as received with the
     MSO's digestAlgorithm equals valueDigests[namespace][digestID]; digest IDs
     unique; validFrom <= time <= validUntil and signed <= validFrom; with
     --iaca: the DS certificate is issued by the IACA, carries EKU
     1.0.18013.5.1.2 and is valid at the time. For a Credential, the
     private deviceKey matches deviceKeyInfo.deviceKey.

Exit status: 0 when everything passed, 1 (with messages) otherwise.
"""

import argparse
import datetime
import hashlib
import logging
import struct
import sys

import cbor2
from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from pymdoccbor.mso.verifier import MsoVerifier

DOCUMENT_SIGNER_EKU = "1.0.18013.5.1.2"  # ISO/IEC 18013-5 Annex B.1.4
COSE_ALGORITHMS = {  # RFC 9053 table 1: alg -> (hash, curve name, coordinate bytes)
    -7: (hashes.SHA256, "secp256r1", 32),
    -35: (hashes.SHA384, "secp384r1", 48),
    -36: (hashes.SHA512, "secp521r1", 66),
}
DIGEST_ALGORITHMS = {"SHA-256": hashlib.sha256, "SHA-384": hashlib.sha384,
                     "SHA-512": hashlib.sha512}  # ISO/IEC 18013-5 9.1.2.5
COSE_CURVES = {1: "secp256r1", 2: "secp384r1", 3: "secp521r1"}  # RFC 9053 table 18
CURVE_TYPES = {"secp256r1": ec.SECP256R1, "secp384r1": ec.SECP384R1, "secp521r1": ec.SECP521R1}
MAXIMUM_DEPTH = 64


class Failure(Exception):
    """A check that did not pass; the message says what and where."""


class Item:
    """One CBOR data item with the exact bytes it occupied (RFC 8949 section 3)."""

    def __init__(self, major, value, raw, tag=None):
        self.major, self.value, self.raw, self.tag = major, value, raw, tag

    def get(self, key):
        """Map lookup by a text or integer key; None when absent."""
        if self.major != 5:
            return None
        for k, v in self.value:
            if k.major in (0, 1, 3) and k.value == key and type(k.value) is type(key):
                return v
        return None


def parse(data, offset=0, depth=0):
    """Decode one item at offset; returns (Item, end). Definite and indefinite lengths."""
    if depth > MAXIMUM_DEPTH:
        raise Failure(f"CBOR nested deeper than {MAXIMUM_DEPTH} at offset {offset}")
    if offset >= len(data):
        raise Failure(f"CBOR truncated at offset {offset}")
    start, initial = offset, data[offset]
    major, info, offset = initial >> 5, initial & 0x1F, offset + 1

    def argument():
        nonlocal offset
        if info < 24:
            return info
        if info > 27:
            return None
        size = 1 << (info - 24)
        if offset + size > len(data):
            raise Failure(f"CBOR truncated at offset {offset}")
        value = int.from_bytes(data[offset:offset + size], "big")
        offset += size
        return value

    if major == 7:
        if info in (25, 26, 27):
            size = 1 << (info - 24)
            if offset + size > len(data):
                raise Failure(f"CBOR truncated at offset {offset}")
            value = struct.unpack({2: ">e", 4: ">f", 8: ">d"}[size], data[offset:offset + size])[0]
            offset += size
        elif info < 24:
            value = {20: False, 21: True, 22: None}.get(info, ("simple", info))
        elif info == 24:
            value = ("simple", argument())
        else:
            raise Failure(f"CBOR reserved simple/break at offset {start}")
        return Item(7, value, data[start:offset]), offset
    length = argument()
    if length is None and (info != 31 or major in (0, 1, 6)):
        raise Failure(f"CBOR reserved additional information {info} at offset {start}")
    if major == 0:
        return Item(0, length, data[start:offset]), offset
    if major == 1:
        return Item(1, -1 - length, data[start:offset]), offset
    if major in (2, 3):
        if length is None:
            chunks = []
            while data[offset:offset + 1] != b"\xff":
                chunk, offset = parse(data, offset, depth + 1)
                if chunk.major != major or chunk.raw[0] & 0x1F == 31:
                    raise Failure(f"CBOR bad indefinite string chunk at offset {offset}")
                chunks.append(chunk.value)
            offset += 1
            value = b"".join(chunks) if major == 2 else "".join(chunks)
        else:
            if offset + length > len(data):
                raise Failure(f"CBOR string longer than input at offset {start}")
            value = bytes(data[offset:offset + length])
            offset += length
            if major == 3:
                try:
                    value = value.decode("utf-8")
                except UnicodeDecodeError as error:
                    raise Failure(f"CBOR invalid UTF-8 at offset {start}") from error
        return Item(major, value, data[start:offset]), offset
    if major == 6:
        content, offset = parse(data, offset, depth + 1)
        return Item(6, content, data[start:offset], tag=length), offset
    entries = []
    count = 0
    while (length is None and data[offset:offset + 1] != b"\xff") or (
            length is not None and count < length):
        if offset >= len(data):
            raise Failure(f"CBOR truncated at offset {offset}")
        first, offset = parse(data, offset, depth + 1)
        if major == 5:
            second, offset = parse(data, offset, depth + 1)
            entries.append((first, second))
        else:
            entries.append(first)
        count += 1
    if length is None:
        offset += 1
    return Item(major, entries, data[start:offset]), offset


def parse_whole(data, what):
    item, end = parse(data)
    if end != len(data):
        raise Failure(f"{what}: {len(data) - end} trailing bytes after the CBOR item")
    return item


def require(item, major, where, tag=None):
    names = {0: "uint", 1: "nint", 2: "bstr", 3: "tstr", 4: "array", 5: "map", 6: "tag"}
    if item is None:
        raise Failure(f"{where}: missing")
    if item.major != major or (tag is not None and item.tag != tag):
        expected = f"tag {tag}" if tag is not None else names[major]
        raise Failure(f"{where}: expected {expected}")
    return item


def parse_tdate(item, where):
    require(item, 6, where, tag=0)
    text = require(item.value, 3, where).value
    try:
        return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError as error:
        raise Failure(f"{where}: not an RFC 3339 date-time: {text!r}") from error


def check_with_pymdoccbor(issuer_signed, roots, where):
    """Verification 1: pymdoccbor's own API on the decoded structures."""
    issuer_auth = cbor2.loads(issuer_signed.get("issuerAuth").raw)
    name_spaces = cbor2.loads(issuer_signed.get("nameSpaces").raw)
    verifier = MsoVerifier(issuer_auth)
    try:
        signature_valid = verifier.verify_signature(roots)
    except Exception as error:  # pymdoccbor raises assorted exception types
        hint = (" (pymdoccbor 1.4 verifies only P-256 document signer keys)"
                if isinstance(error, KeyError) else "")
        raise Failure(f"{where}.issuerAuth: {type(error).__name__}: {error}{hint}") from error
    if not signature_valid:
        raise Failure(f"{where}.issuerAuth: MSO signature is not valid")
    result = verifier.verify_element_hashes(name_spaces)
    if not result["valid"]:
        algorithm = verifier.payload_as_dict.get("digestAlgorithm")
        hint = (f" (pymdoccbor 1.4 always hashes with SHA-256; the MSO says {algorithm})"
                if algorithm != "SHA-256" else "")
        raise Failure(f"{where}.nameSpaces: digest check failed{hint}: {result['failed']}")
    return result["verified"]


def check_signature(issuer_auth, where):
    """COSE_Sign1 (RFC 9052 section 4.4) with the DS certificate of x5chain."""
    require(issuer_auth, 4, where)
    if len(issuer_auth.value) != 4:
        raise Failure(f"{where}: COSE_Sign1 must have 4 elements")
    protected_bstr, unprotected, payload, signature = issuer_auth.value
    protected_bytes = require(protected_bstr, 2, f"{where}[0]").value
    protected = parse_whole(protected_bytes, f"{where}[0]") if protected_bytes else None
    require(unprotected, 5, f"{where}[1]")
    alg = protected.get(1) if protected else None
    if alg is None or alg.value not in COSE_ALGORITHMS:
        raise Failure(f"{where}[0]: protected header alg (1) missing or not ES256/384/512")
    hash_type, curve_name, size = COSE_ALGORITHMS[alg.value]
    chain = unprotected.get(33) or (protected.get(33) if protected else None)
    if chain is None:
        raise Failure(f"{where}: no x5chain (33) header")
    certificates = [chain] if chain.major == 2 else chain.value
    if not certificates or any(c.major != 2 for c in certificates):
        raise Failure(f"{where}: x5chain must be a bstr or an array of bstr")
    try:
        ds_cert = x509.load_der_x509_certificate(certificates[0].value)
        public_key = ds_cert.public_key()
    except ValueError as error:
        raise Failure(f"{where}: x5chain[0] is not a usable certificate ({error})") from error
    if not isinstance(public_key, ec.EllipticCurvePublicKey) or public_key.curve.name != curve_name:
        raise Failure(f"{where}: DS certificate key does not match alg {alg.value}")
    payload_bytes = require(payload, 2, f"{where}[2]").value
    raw_signature = require(signature, 2, f"{where}[3]").value
    if len(raw_signature) != 2 * size:
        raise Failure(f"{where}[3]: signature must be {2 * size} bytes, is {len(raw_signature)}")
    sig_structure = cbor2.dumps(["Signature1", protected_bytes, b"", payload_bytes])
    der = encode_dss_signature(int.from_bytes(raw_signature[:size], "big"),
                               int.from_bytes(raw_signature[size:], "big"))
    try:
        public_key.verify(der, sig_structure, ec.ECDSA(hash_type()))
    except InvalidSignature as error:
        raise Failure(f"{where}: MSO signature is not valid for the x5chain DS certificate") from error
    return ds_cert, payload_bytes


def check_certificate(ds_cert, iaca, at, where):
    try:
        ds_cert.verify_directly_issued_by(iaca)
    except (ValueError, TypeError, InvalidSignature) as error:
        raise Failure(f"{where}: DS certificate is not issued by the IACA ({error})") from error
    try:
        usages = ds_cert.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value
    except x509.ExtensionNotFound as error:
        raise Failure(f"{where}: DS certificate has no extended key usage") from error
    if DOCUMENT_SIGNER_EKU not in [oid.dotted_string for oid in usages]:
        raise Failure(f"{where}: DS certificate lacks EKU {DOCUMENT_SIGNER_EKU}")
    if not ds_cert.not_valid_before_utc <= at <= ds_cert.not_valid_after_utc:
        raise Failure(f"{where}: DS certificate not valid at {at.isoformat()}")


def check_mso(payload_bytes, doc_type, name_spaces, at, where):
    """MobileSecurityObject (ISO/IEC 18013-5 9.1.2.4) against the IssuerSignedItems."""
    tagged = parse_whole(payload_bytes, f"{where}.payload")
    require(tagged, 6, f"{where}.payload", tag=24)
    mso = parse_whole(require(tagged.value, 2, f"{where}.payload").value, f"{where}.MSO")
    require(mso, 5, f"{where}.MSO")
    if require(mso.get("version"), 3, f"{where}.MSO.version").value != "1.0":
        raise Failure(f"{where}.MSO.version: expected \"1.0\"")
    mso_doc_type = require(mso.get("docType"), 3, f"{where}.MSO.docType").value
    if doc_type is not None and mso_doc_type != doc_type:
        raise Failure(f"{where}.MSO.docType: {mso_doc_type!r} but the document says {doc_type!r}")
    algorithm = require(mso.get("digestAlgorithm"), 3, f"{where}.MSO.digestAlgorithm").value
    if algorithm not in DIGEST_ALGORITHMS:
        raise Failure(f"{where}.MSO.digestAlgorithm: unsupported {algorithm!r}")
    validity = require(mso.get("validityInfo"), 5, f"{where}.MSO.validityInfo")
    signed = parse_tdate(validity.get("signed"), f"{where}.MSO.validityInfo.signed")
    valid_from = parse_tdate(validity.get("validFrom"), f"{where}.MSO.validityInfo.validFrom")
    valid_until = parse_tdate(validity.get("validUntil"), f"{where}.MSO.validityInfo.validUntil")
    if not signed <= valid_from < valid_until:
        raise Failure(f"{where}.MSO.validityInfo: need signed <= validFrom < validUntil")
    if not valid_from <= at <= valid_until:
        raise Failure(f"{where}.MSO.validityInfo: not valid at {at.isoformat()} "
                      f"({valid_from.isoformat()} .. {valid_until.isoformat()})")
    digests = require(mso.get("valueDigests"), 5, f"{where}.MSO.valueDigests")
    hash_function = DIGEST_ALGORITHMS[algorithm]
    checked = 0
    for namespace_key, items in require(name_spaces, 5, f"{where}.nameSpaces").value:
        namespace = require(namespace_key, 3, f"{where}.nameSpaces key").value
        ns_where = f"{where}.nameSpaces[{namespace!r}]"
        ns_digests = digests.get(namespace)
        if ns_digests is None:
            raise Failure(f"{ns_where}: namespace not in MSO valueDigests")
        require(ns_digests, 5, f"{where}.MSO.valueDigests[{namespace!r}]")
        seen = set()
        for index, item in enumerate(require(items, 4, ns_where).value):
            item_where = f"{ns_where}[{index}]"
            require(item, 6, item_where, tag=24)
            content = parse_whole(require(item.value, 2, item_where).value, item_where)
            digest_id = require(content.get("digestID"), 0, f"{item_where}.digestID").value
            identifier = require(content.get("elementIdentifier"), 3,
                                 f"{item_where}.elementIdentifier").value
            require(content.get("random"), 2, f"{item_where}.random")
            if content.get("elementValue") is None:
                raise Failure(f"{item_where}.elementValue: missing")
            if digest_id in seen:
                raise Failure(f"{item_where}: digestID {digest_id} used twice")
            seen.add(digest_id)
            expected = ns_digests.get(digest_id)
            if expected is None:
                raise Failure(f"{item_where} ({identifier}): digestID {digest_id} not in MSO")
            if hash_function(item.raw).digest() != require(expected, 2, item_where).value:
                raise Failure(f"{item_where} ({identifier}): digest does not match "
                              f"valueDigests[{digest_id}]")
            checked += 1
    return mso, checked


def check_device_key(mso, device_key, where):
    """The Credential's private key belongs to MSO deviceKeyInfo.deviceKey (RFC 9053 7.1.1)."""
    key_info = require(mso.get("deviceKeyInfo"), 5, f"{where}.MSO.deviceKeyInfo")
    public = require(key_info.get("deviceKey"), 5, f"{where}.MSO.deviceKeyInfo.deviceKey")
    require(device_key, 5, "deviceKey")
    for label in (1, -1):
        mine, theirs = device_key.get(label), public.get(label)
        if mine is None or theirs is None or mine.value != theirs.value:
            raise Failure(f"deviceKey: label {label} differs from MSO deviceKeyInfo.deviceKey")
    if device_key.get(1).value != 2 or device_key.get(-1).value not in COSE_CURVES:
        raise Failure("deviceKey: only EC2 keys on P-256/P-384/P-521 are checked")
    d = require(device_key.get(-4), 2, "deviceKey.d").value
    curve = COSE_CURVES[device_key.get(-1).value]
    private = ec.derive_private_key(int.from_bytes(d, "big"), CURVE_TYPES[curve]())
    numbers = private.public_key().public_numbers()
    size = len(require(public.get(-2), 2, f"{where}.MSO.deviceKey.x").value)
    if (numbers.x.to_bytes(size, "big") != public.get(-2).value
            or numbers.y.to_bytes(size, "big") != require(public.get(-3), 2, "deviceKey.y").value):
        raise Failure("deviceKey: d does not give the public key in MSO deviceKeyInfo")


def documents(top):
    """(docType or None, IssuerSigned item, deviceKey item or None, where) per document."""
    require(top, 5, "file")
    if top.get("issuerSigned") is not None and top.get("docType") is not None:
        doc_type = require(top.get("docType"), 3, "docType").value
        return [(doc_type, top.get("issuerSigned"), top.get("deviceKey"), "issuerSigned")]
    if top.get("issuerAuth") is not None:
        return [(None, top, None, "IssuerSigned")]
    if top.get("documents") is not None:
        found = []
        for index, document in enumerate(require(top.get("documents"), 4, "documents").value):
            where = f"documents[{index}]"
            require(document, 5, where)
            doc_type = require(document.get("docType"), 3, f"{where}.docType").value
            found.append((doc_type, document.get("issuerSigned"), None, f"{where}.issuerSigned"))
        if not found:
            raise Failure("documents: empty")
        return found
    raise Failure("file: not a Credential, IssuerSigned or DeviceResponse map")


def read_input(path):
    with open(path, "rb") as handle:
        data = handle.read()
    text = data.strip()
    if text and all(c in b"0123456789abcdefABCDEF" for c in text) and len(text) % 2 == 0:
        return bytes.fromhex(text.decode("ascii"))
    return data


def verify(args):
    at = (datetime.datetime.fromisoformat(args.at.replace("Z", "+00:00")) if args.at
          else datetime.datetime.now(datetime.timezone.utc))
    iaca = None
    if args.iaca:
        with open(args.iaca, "rb") as handle:
            iaca = x509.load_pem_x509_certificate(handle.read())
    top = parse_whole(read_input(args.file), args.file)
    failures = []
    for doc_type, issuer_signed, device_key, where in documents(top):
        require(issuer_signed, 5, where)
        require(issuer_signed.get("nameSpaces"), 5, f"{where}.nameSpaces")
        require(issuer_signed.get("issuerAuth"), 4, f"{where}.issuerAuth")
        checked = pymdoccbor_checked = None
        try:
            ds_cert, payload = check_signature(issuer_signed.get("issuerAuth"),
                                               f"{where}.issuerAuth")
            if iaca is not None:
                check_certificate(ds_cert, iaca, at, f"{where}.issuerAuth")
            mso, checked = check_mso(payload, doc_type, issuer_signed.get("nameSpaces"), at, where)
            if device_key is not None:
                check_device_key(mso, device_key, where)
        except (Failure, ValueError, TypeError) as error:
            failures.append(f"own check: {error}")
            checked = None
        try:
            pymdoccbor_checked = check_with_pymdoccbor(issuer_signed, [iaca] if iaca else None,
                                                       where)
        except Failure as error:
            failures.append(f"pymdoccbor: {error}")
        if checked is None or pymdoccbor_checked is None:
            continue
        if pymdoccbor_checked != checked:
            failures.append(f"{where}: pymdoccbor verified {pymdoccbor_checked} items, "
                            f"own check {checked}")
            continue
        print(f"OK {where}: {mso.get('docType').value}, MSO signature valid "
              f"(pymdoccbor and own check), {checked} item digests match"
              + (", DS certificate issued by IACA" if iaca is not None else "")
              + (", deviceKey matches MSO" if device_key is not None else ""))
    if failures:
        raise Failure("\n  ".join([f"{len(failures)} check(s) failed:"] + failures))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("file", help="Credential, IssuerSigned or DeviceResponse (CBOR or hex)")
    parser.add_argument("--iaca", help="IACA certificate (PEM) the DS certificate must chain to")
    parser.add_argument("--at", help="check validity at this RFC 3339 time instead of now")
    args = parser.parse_args()
    logging.basicConfig(format="pymdoccbor log: %(levelname)s: %(message)s", level=logging.WARNING)
    try:
        verify(args)
    except Failure as error:
        print(f"FAILED: {error}", file=sys.stderr)
        return 1
    except (OSError, ValueError, TypeError, KeyError, cbor2.CBORError) as error:
        print(f"FAILED: {type(error).__name__}: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
