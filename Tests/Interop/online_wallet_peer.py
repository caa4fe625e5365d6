#!/usr/bin/env python3
"""Answer an online mdoc request as a wallet, independently of swift-mdoc.

Interop peer for swift-mdoc (see Tests/Interop/README.md). Our own script, written on
independent libraries: cbor2 for CBOR, cryptography for ECDSA and keys, jwcrypto for the
OpenID4VP JWE, pyhpke for the HPKE of ISO/IEC TS 18013-7 Annex C. Nothing of swift-mdoc is
used: the DeviceResponse, the SessionTranscript and DeviceAuthentication are built here.

Usage:
    online_wallet_peer.py --request REQUEST.json --credential CRED.mdoc --out RESPONSE
                          [--origin https://verifier.example]

REQUEST is what `mdoc-reader online-request` writes:
  * an OpenID4VP 1.0 request (response_type vp_token, a DCQL query of mso_mdoc
    Credential Queries), response_mode dc_api, dc_api.jwt, direct_post or
    direct_post.jwt; --origin for the dc_api modes;
  * an ISO/IEC TS 18013-7 Annex C request {"deviceRequest", "encryptionInfo"};
    --origin always.
CRED is a swift-mdoc Credential file {"docType", "issuerSigned", "deviceKey"} whose
deviceKey holds the private "d" (Certs/demo/mdl.mdoc, or one pymdoccbor_issue.py wrote).

Every element asked for that the credential holds is returned (the wallet's consent is
not modelled). Each document carries a DeviceSignature (ES256, ISO/IEC 18013-5 9.1.3.4)
over DeviceAuthentication with this script's SessionTranscript [null, null, Handover]:
  * OpenID4VP 1.0 Appendix B.2.6: ["OpenID4VPDCAPIHandover", SHA-256(cbor([origin, nonce,
    thumbprint]))] or ["OpenID4VPHandover", SHA-256(cbor([client_id, nonce, thumbprint,
    response_uri]))], thumbprint the RFC 7638 SHA-256 of the request's JWK for the .jwt
    modes, else null;
  * Annex C: ["dcapi", SHA-256(cbor([encryptionInfo as sent, origin]))].
The answer: OpenID4VP {"vp_token": {id: [b64url(DeviceResponse)]}}, as a JWE (ECDH-ES,
the request's kid and first enc) in {"response": ...} for the .jwt modes, and as a form
body for direct_post; Annex C {"response": b64url(["dcapi", {"enc", "cipherText"}])} with
HPKE (DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-128-GCM), info the SessionTranscript.

Exit status: 0 when the response was written, 1 (with a message) otherwise.
"""

import argparse
import base64
import hashlib
import json
import sys
import urllib.parse

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
from jwcrypto import jwe, jwk
from pyhpke import AEADId, CipherSuite, KDFId, KEMId, KEMKey


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def load_credential(path):
    """The docType, IssuerSigned and private device key of a Credential file."""
    with open(path, "rb") as handle:
        credential = cbor2.loads(handle.read())
    key = credential["deviceKey"]
    if key.get(1) != 2 or key.get(-1) != 1 or -4 not in key:
        raise ValueError("the credential's deviceKey is not an EC2 P-256 key with its private part")
    private = ec.derive_private_key(int.from_bytes(key[-4], "big"), ec.SECP256R1())
    return credential["docType"], credential["issuerSigned"], private


def device_signature(private_key, transcript, doc_type, device_name_spaces_bytes):
    """COSE_Sign1 with a detached payload over DeviceAuthenticationBytes (9.1.3.4)."""
    device_authentication = ["DeviceAuthentication", transcript, doc_type, device_name_spaces_bytes]
    payload = cbor2.dumps(cbor2.CBORTag(24, cbor2.dumps(device_authentication)))
    protected = cbor2.dumps({1: -7})
    to_sign = cbor2.dumps(["Signature1", protected, b"", payload])
    r, s = decode_dss_signature(private_key.sign(to_sign, ec.ECDSA(hashes.SHA256())))
    return [protected, {}, None, r.to_bytes(32, "big") + s.to_bytes(32, "big")]


def device_response(credential, wanted, transcript):
    """An encoded DeviceResponse of one document: the credential's items among `wanted`
    ({namespace: [element]}), signed over `transcript`."""
    doc_type, issuer_signed, private_key = credential
    name_spaces = {}
    for name_space, items in issuer_signed["nameSpaces"].items():
        kept = [item for item in items
                if cbor2.loads(item.value)["elementIdentifier"] in wanted.get(name_space, [])]
        if kept:
            name_spaces[name_space] = kept
    device_name_spaces_bytes = cbor2.CBORTag(24, cbor2.dumps({}))
    document = {
        "docType": doc_type,
        "issuerSigned": {"nameSpaces": name_spaces, "issuerAuth": issuer_signed["issuerAuth"]},
        "deviceSigned": {
            "nameSpaces": device_name_spaces_bytes,
            "deviceAuth": {"deviceSignature": device_signature(private_key, transcript, doc_type, device_name_spaces_bytes)},
        },
    }
    return cbor2.dumps({"version": "1.0", "documents": [document], "status": 0})


def session_transcript(handover):
    return [None, None, handover]


def answer_openid4vp(request, credential, origin):
    mode = request["response_mode"]
    nonce = request["nonce"]
    key = None
    if mode.endswith(".jwt"):
        key = next(k for k in request["client_metadata"]["jwks"]["keys"]
                   if k.get("use", "enc") == "enc" and k.get("kty") == "EC" and k.get("crv") == "P-256")
        thumbprint = unb64url(jwk.JWK(**key).thumbprint())
    else:
        thumbprint = None
    if mode.startswith("dc_api"):
        if origin is None:
            raise ValueError(f"response_mode {mode} needs --origin")
        info = [origin, nonce, thumbprint]
        handover = ["OpenID4VPDCAPIHandover", hashlib.sha256(cbor2.dumps(info)).digest()]
    else:
        info = [request["client_id"], nonce, thumbprint, request["response_uri"]]
        handover = ["OpenID4VPHandover", hashlib.sha256(cbor2.dumps(info)).digest()]
    transcript = session_transcript(handover)
    vp_token = {}
    for query in request["dcql_query"]["credentials"]:
        if query["format"] != "mso_mdoc" or query["meta"]["doctype_value"] != credential[0]:
            raise ValueError(f"the credential does not answer the Credential Query {query['id']}")
        wanted = {}
        for claim in query["claims"]:
            wanted.setdefault(claim["path"][0], []).append(claim["path"][1])
        vp_token[query["id"]] = [b64url(device_response(credential, wanted, transcript))]
    payload = {"vp_token": vp_token}
    if key is not None:
        enc = request["client_metadata"].get("encrypted_response_enc_values_supported", ["A128GCM"])[0]
        token = jwe.JWE(json.dumps(payload).encode(),
                        protected=json.dumps({"alg": "ECDH-ES", "enc": enc, "kid": key["kid"]}))
        token.add_recipient(jwk.JWK(**{name: key[name] for name in ("kty", "crv", "x", "y")}))
        fields = {"response": token.serialize(compact=True)}
    else:
        fields = {"vp_token": json.dumps(payload["vp_token"])}
    if mode.startswith("dc_api"):
        return json.dumps(fields if key is not None else payload)
    return urllib.parse.urlencode(fields)


def answer_annex_c(request, credential, origin):
    if origin is None:
        raise ValueError("an org-iso-mdoc request needs --origin")
    encryption_info_text = request["encryptionInfo"]
    identifier, parameters = cbor2.loads(unb64url(encryption_info_text))
    if identifier != "dcapi":
        raise ValueError("the encryptionInfo is not a dcapi EncryptionInfo")
    cose_key = parameters["recipientPublicKey"]
    recipient = ec.EllipticCurvePublicNumbers(
        int.from_bytes(cose_key[-2], "big"), int.from_bytes(cose_key[-3], "big"), ec.SECP256R1()).public_key()
    handover = ["dcapi", hashlib.sha256(cbor2.dumps([encryption_info_text, origin])).digest()]
    transcript = session_transcript(handover)
    device_request = cbor2.loads(unb64url(request["deviceRequest"]))
    doc_request = device_request["docRequests"][0]
    items_request = cbor2.loads(doc_request["itemsRequest"].value)
    if items_request["docType"] != credential[0]:
        raise ValueError("the credential is not of the doc type requested")
    wanted = {name_space: list(elements) for name_space, elements in items_request["nameSpaces"].items()}
    plaintext = device_response(credential, wanted, transcript)
    suite = CipherSuite.new(KEMId.DHKEM_P256_HKDF_SHA256, KDFId.HKDF_SHA256, AEADId.AES128_GCM)
    enc, sender = suite.create_sender_context(KEMKey.from_pyca_cryptography_key(recipient), info=cbor2.dumps(transcript))
    cipher_text = sender.seal(plaintext, aad=b"")
    return json.dumps({"response": b64url(cbor2.dumps(["dcapi", {"enc": enc, "cipherText": cipher_text}]))})


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--request", required=True)
    parser.add_argument("--credential", required=True)
    parser.add_argument("--origin")
    parser.add_argument("--out", required=True)
    arguments = parser.parse_args()
    try:
        with open(arguments.request, encoding="utf-8") as handle:
            request = json.load(handle)
        credential = load_credential(arguments.credential)
        if "response_type" in request:
            body = answer_openid4vp(request, credential, arguments.origin)
        else:
            body = answer_annex_c(request, credential, arguments.origin)
    except (OSError, ValueError, KeyError, StopIteration) as error:
        print(f"online_wallet_peer: {error!r}", file=sys.stderr)
        return 1
    with open(arguments.out, "w", encoding="utf-8") as handle:
        handle.write(body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
