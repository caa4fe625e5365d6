#!/usr/bin/env python3
"""Linked Bumble virtual LE controllers for swift-mdoc's tests, on loopback only.

Starts N controllers (default 2) on one bumble.link.LocalLink, each served as an H4 byte
stream on its own TCP server on 127.0.0.1 with a port the OS picks, prints one line
`ports P1 P2 ...` and then runs until it is killed or, when standard input is a pipe,
until that pipe closes (so a test that dies leaves nothing behind).

    python3 Tests/Interop/bumble/virtual_controllers.py [N]

Each TCP server takes one host at a time (a new one replaces the old); controller state
(links, advertising) lasts as long as this process, so tests start their own.
"""

import asyncio
import os
import socket
import stat
import sys

from bumble.controller import Controller
from bumble.link import LocalLink
from bumble.transport.tcp_server import open_tcp_server_transport_with_socket


async def serve(count: int) -> None:
    link = LocalLink()
    transports = []
    ports = []
    for index in range(count):
        # IPPROTO_TCP, not 0: asyncio sets TCP_NODELAY only on sockets whose proto says TCP,
        # and without it Nagle holds each small H4 packet for the peer's delayed ACK (40 ms).
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        transport = await open_tcp_server_transport_with_socket(sock)
        transports.append(transport)
        Controller(f"C{index}", host_source=transport.source, host_sink=transport.sink, link=link)
        ports.append(sock.getsockname()[1])
    print("ports", *ports, flush=True)

    loop = asyncio.get_running_loop()
    done = loop.create_future()
    if stat.S_ISFIFO(os.fstat(0).st_mode):
        def on_input() -> None:
            if not os.read(0, 4096) and not done.done():
                done.set_result(None)
        loop.add_reader(0, on_input)
    await done
    for transport in transports:
        await transport.close()


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    if count < 1:
        sys.exit("virtual_controllers.py: give at least one controller")
    try:
        asyncio.run(serve(count))
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
