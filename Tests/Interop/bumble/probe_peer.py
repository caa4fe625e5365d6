#!/usr/bin/env python3
"""A central that connects to an ISO/IEC 18013-5 GATT server and leaves without starting a
session, as phones' scanners do and as readers that retry their connection do: a peer for the
tests of swift-mdoc's GATT servers (the mdoc in peripheral server mode, the reader in central
client mode), on Bumble's own host and GATT client.

    probe_peer.py URI --transport tcp-client:127.0.0.1:P [--mode peripheral|central]
                  [--until connected|mtu|discovered|subscribed] [--times N] [--hold] [--timeout S]

It finds the device advertising the service UUID the engagement (an mdoc: URI) gives for the
mode, connects, goes through the connection sequence of 8.3.3.1.1.4 up to --until (ATT MTU
exchange, discovery of the service and its characteristics, notifications of State and
Server2Client enabled) and never writes State 0x01. Then it disconnects, and does it all again
--times times: each time the service must be found advertised again. With --hold it stays
connected after the last time instead: it prints `holding` and waits until the server ends the
link.

Progress goes to stderr; the last stdout line is JSON with "outcome": "probed", "connections"
and, with --hold, "ended": "by the server" (exit 0), or "failed" with "error" (exit 1).
"""

import argparse
import asyncio
import sys

from bumble.device import Peer
from bumble.transport import open_transport

import mdoc_peer
from mdoc_peer import PeerError

STEPS = ["connected", "mtu", "discovered", "subscribed"]


def log(text):
    print(f"probe_peer: {text}", file=sys.stderr, flush=True)


async def probe(device, mode, service_uuid, until, timeout):
    """One connection up to `until`; returns it, still up."""
    connection = await mdoc_peer.find_and_connect(device, service_uuid, timeout)
    log(f"connected to {connection.peer_address}")
    peer = Peer(connection)
    steps = STEPS[1:STEPS.index(until) + 1]
    if "mtu" in steps:
        log(f"ATT MTU {await peer.request_mtu(mdoc_peer.REQUESTED_MTU)}")
    if "discovered" in steps:
        services = await peer.discover_service(str(service_uuid).upper())
        if not services:
            raise PeerError(f"the GATT server has no service {service_uuid}")
        characteristics = {str(c.uuid).upper(): c for c in await peer.discover_characteristics(service=services[0])}
        log(f"discovered {len(characteristics)} characteristics")
    if "subscribed" in steps:
        uuids = mdoc_peer.CHARACTERISTICS[mode]
        for name in ("state", "server2client"):
            await peer.subscribe(characteristics[uuids[name]], lambda value: None)
        log("subscribed to State and Server2Client")
    return connection


async def session(args):
    engagement = mdoc_peer.Engagement(mdoc_peer.engagement_from_uri(args.uri))
    if args.mode not in engagement.ble:
        raise PeerError(f"the engagement does not offer {args.mode} mode")
    service_uuid = engagement.ble[args.mode]
    result = {"outcome": "probed", "connections": 0}
    async with await open_transport(args.transport) as (hci_source, hci_sink):
        device = mdoc_peer.make_device("probe-peer", hci_source, hci_sink)
        await device.power_on()
        for number in range(args.times):
            connection = await probe(device, args.mode, service_uuid, args.until, args.timeout)
            result["connections"] += 1
            if args.hold and number == args.times - 1:
                ended = asyncio.get_running_loop().create_future()
                connection.on("disconnection", lambda reason: ended.done() or ended.set_result(reason))
                print("holding", flush=True)
                try:
                    reason = await asyncio.wait_for(ended, args.timeout)
                except asyncio.TimeoutError as error:
                    raise PeerError(f"the server did not end the link within {args.timeout} s") from error
                log(f"the server ended the link (reason {reason})")
                result["ended"] = "by the server"
            else:
                await mdoc_peer.disconnect(connection)
                log("disconnected")
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("uri", help="the holder's mdoc: URI")
    parser.add_argument("--transport", required=True, help="Bumble transport, e.g. tcp-client:127.0.0.1:PORT")
    parser.add_argument("--mode", choices=["peripheral", "central"], default="peripheral")
    parser.add_argument("--until", choices=STEPS, default="subscribed")
    parser.add_argument("--times", type=int, default=1)
    parser.add_argument("--hold", action="store_true", help="stay connected after the last time")
    parser.add_argument("--timeout", type=float, default=30)
    args = parser.parse_args()
    return mdoc_peer.run(lambda: session(args), (args.times + 1) * args.timeout)


if __name__ == "__main__":
    sys.exit(main())
