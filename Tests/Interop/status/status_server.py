#!/usr/bin/env python3
"""A status list server for the tests of MdocHTTP, with hostile routes.

    python3 status_server.py --dir DIR [--tls CERT KEY]

Serves the files of DIR as Status List Tokens (draft-ietf-oauth-status-list section 8) and a
route for each way a server can misbehave. Binds 127.0.0.1 only, on ports the system picks, and
prints `port N` (with `tls-port M` when given --tls, on the same line) as its first line. Ends
when its standard input closes. Python's standard library only.

Routes (on both ports):
  /lists/NAME           the file DIR/NAME, Content-Type application/statuslist+cwt
  /identifier-lists/NAME  the file DIR/NAME, Content-Type application/identifierlist+cwt
  /hits/NAME            how many times /lists/NAME was asked for (/hits/stall: /stall), as text
  /echo-headers         the request's header lines, as text
  /slow/NAME            the head of /lists/NAME, then its body one byte a second
  /trickle              4 KiB a second for a minute: above any low-speed floor, past any deadline
  /stall                reads the request and never answers
  /redirect-loop        redirects to itself
  /redirect/N/NAME      N redirects (1 when N is 0), then /lists/NAME
  /redirect-to-http/NAME  redirects to /lists/NAME on the plain port
  /bytes/N              N bytes with Content-Length N
  /chunked/N            N bytes in chunks, without Content-Length
  /big                  64 MiB with an honest Content-Length
  /big-lying            Content-Length 16, but 64 MiB in chunks
  /code/500, /code/404  that status
  /type/json            a 200 of type application/json
  /gzip/NAME            /lists/NAME gzip-compressed with Content-Encoding gzip, though not asked
"""

import argparse
import gzip
import http.server
import os
import re
import ssl
import sys
import threading

STATUS_LIST_TYPE = "application/statuslist+cwt"
IDENTIFIER_LIST_TYPE = "application/identifierlist+cwt"
BIG = 64 * 1024 * 1024
BLOCK = 64 * 1024
NAME = re.compile(r"^[A-Za-z0-9_-][A-Za-z0-9._-]*$")

stopping = threading.Event()
hits = {}
hits_lock = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def version_string(self):
        return "status-server"

    def setup(self):
        # TLS handshakes happen here, on the connection's own thread: a client that stalls in its
        # handshake holds up nobody else.
        if isinstance(self.request, ssl.SSLSocket):
            self.request.settimeout(10)
            self.request.do_handshake()
            self.request.settimeout(None)
        super().setup()

    def log_message(self, format, *args):
        pass

    def handle_one_request(self):
        try:
            super().handle_one_request()
        except (BrokenPipeError, ConnectionResetError, ssl.SSLError, TimeoutError):
            self.close_connection = True

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        parts = path.strip("/").split("/")
        route, rest = parts[0], parts[1:]
        if route == "lists" and len(rest) == 1:
            self.serve_list(rest[0], STATUS_LIST_TYPE)
        elif route == "identifier-lists" and len(rest) == 1:
            self.serve_list(rest[0], IDENTIFIER_LIST_TYPE)
        elif route == "hits" and len(rest) == 1:
            with hits_lock:
                count = hits.get(rest[0], 0)
            self.send_body(200, "text/plain", str(count).encode())
        elif route == "echo-headers" and not rest:
            self.send_body(200, "text/plain", str(self.headers).encode())
        elif route == "slow" and len(rest) == 1:
            self.serve_slowly(rest[0])
        elif route == "trickle" and not rest:
            self.serve_trickle()
        elif route == "stall" and not rest:
            with hits_lock:
                hits["stall"] = hits.get("stall", 0) + 1
            while not stopping.wait(0.5):
                pass
            self.close_connection = True
        elif route == "redirect-loop" and not rest:
            self.redirect("/redirect-loop")
        elif route == "redirect" and len(rest) == 2 and rest[0].isdigit():
            count = int(rest[0])
            self.redirect(f"/redirect/{count - 1}/{rest[1]}" if count > 1 else f"/lists/{rest[1]}")
        elif route == "redirect-to-http" and len(rest) == 1:
            self.redirect(f"http://127.0.0.1:{self.server.plain_port}/lists/{rest[0]}")
        elif route == "bytes" and len(rest) == 1 and rest[0].isdigit():
            self.serve_bytes(int(rest[0]), int(rest[0]))
        elif route == "chunked" and len(rest) == 1 and rest[0].isdigit():
            self.serve_chunked(int(rest[0]), None)
        elif route == "big" and not rest:
            self.serve_bytes(BIG, BIG)
        elif route == "big-lying" and not rest:
            self.serve_chunked(BIG, 16)
        elif route == "code" and len(rest) == 1 and rest[0] in ("404", "500"):
            self.send_body(int(rest[0]), "text/plain", b"no list here\n")
        elif route == "type" and rest == ["json"]:
            self.send_body(200, "application/json", b"{}")
        elif route == "gzip" and len(rest) == 1:
            body = self.read_list(rest[0])
            if body is None:
                self.send_body(404, "text/plain", b"no such list\n")
            else:
                self.send_body(200, STATUS_LIST_TYPE, gzip.compress(body), [("Content-Encoding", "gzip")])
        else:
            self.send_body(404, "text/plain", b"no such route\n")

    def read_list(self, name):
        if not NAME.match(name):
            return None
        try:
            with open(os.path.join(self.server.directory, name), "rb") as file:
                return file.read()
        except OSError:
            return None

    def serve_list(self, name, content_type):
        body = self.read_list(name)
        if body is None:
            self.send_body(404, "text/plain", b"no such list\n")
            return
        with hits_lock:
            hits[name] = hits.get(name, 0) + 1
        self.send_body(200, content_type, body)

    def serve_slowly(self, name):
        body = self.read_list(name)
        if body is None:
            self.send_body(404, "text/plain", b"no such list\n")
            return
        self.send_head(200, STATUS_LIST_TYPE, [("Content-Length", str(len(body)))])
        for index in range(len(body)):
            if stopping.wait(1):
                return
            self.wfile.write(body[index:index + 1])
            self.wfile.flush()

    def serve_trickle(self):
        self.send_head(200, STATUS_LIST_TYPE, [("Content-Length", str(240 * 1024))])
        for _ in range(240):
            if stopping.wait(0.25):
                return
            self.wfile.write(b"\0" * 1024)
            self.wfile.flush()

    def serve_bytes(self, count, length):
        self.send_head(200, STATUS_LIST_TYPE, [("Content-Length", str(length))])
        block = b"\xa5" * BLOCK
        while count > 0 and not stopping.is_set():
            self.wfile.write(block[:min(count, BLOCK)])
            count -= BLOCK

    def serve_chunked(self, count, lying_length):
        headers = [("Transfer-Encoding", "chunked")]
        if lying_length is not None:
            headers.append(("Content-Length", str(lying_length)))
        self.send_head(200, STATUS_LIST_TYPE, headers)
        block = b"\xa5" * BLOCK
        while count > 0 and not stopping.is_set():
            chunk = block[:min(count, BLOCK)]
            self.wfile.write(b"%x\r\n" % len(chunk) + chunk + b"\r\n")
            count -= len(chunk)
        self.wfile.write(b"0\r\n\r\n")

    def redirect(self, location):
        self.send_body(302, "text/plain", b"moved\n", [("Location", location)])

    def send_head(self, code, content_type, headers):
        self.send_response(code)
        self.send_header("Content-Type", content_type)
        self.send_header("Connection", "close")
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.close_connection = True

    def send_body(self, code, content_type, body, headers=()):
        self.send_head(code, content_type, [("Content-Length", str(len(body)))] + list(headers))
        self.wfile.write(body)


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, directory, context=None):
        super().__init__(("127.0.0.1", 0), Handler)
        self.directory = directory
        self.context = context
        self.plain_port = None

    def get_request(self):
        connection, address = super().get_request()
        if self.context is not None:
            connection = self.context.wrap_socket(connection, server_side=True, do_handshake_on_connect=False)
        return connection, address


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", required=True)
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    arguments = parser.parse_args()

    servers = [Server(arguments.dir)]
    if arguments.tls:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(arguments.tls[0], arguments.tls[1])
        servers.append(Server(arguments.dir, context))
    for server in servers:
        server.plain_port = servers[0].server_address[1]
        threading.Thread(target=server.serve_forever, daemon=True).start()
    line = f"port {servers[0].server_address[1]}"
    if arguments.tls:
        line += f" tls-port {servers[1].server_address[1]}"
    print(line, flush=True)

    # Until standard input closes: the test process stopped it, or ended.
    while sys.stdin.buffer.read(4096):
        pass
    stopping.set()
    for server in servers:
        server.shutdown()
        server.server_close()


if __name__ == "__main__":
    main()
